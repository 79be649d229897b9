//! `toon mcp`: a Model Context Protocol server over stdio (the official Rust SDK,
//! `rmcp`). Its tools ([`tools::TOOLS`]) call the libraries through [`adapter`]; a bad
//! argument or input is a tool error carrying the located message, and the server
//! goes on. Files are read only when a client names them, and never written.

mod adapter;
mod tools;

use std::process::ExitCode;
use std::sync::Arc;

use rmcp::ErrorData;
use rmcp::handler::server::ServerHandler;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation,
    ListToolsResult, PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::{RequestContext, RoleServer, ServiceExt};

/// The server: stateless, every call stands alone.
#[derive(Clone, Debug, Default)]
struct ToonServer;

impl ServerHandler for ToonServer {
    fn get_info(&self) -> ServerConfig {
        let mut config = ServerConfig::new(ServerCapabilities::builder().enable_tools().build());
        config.server_info = Implementation::new("toon", env!("CARGO_PKG_VERSION"));
        config.instructions = Some(
            "TOON codec and agent plans: encode/decode TOON, count tokens, validate, convert, \
             schedule and show plans in every dialect, and teach a model to write a plan as TOON."
                .into(),
        );
        config
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let tools = tools::TOOLS
            .iter()
            .map(|t| {
                let schema = match (t.schema)() {
                    serde_json::Value::Object(o) => o,
                    _ => serde_json::Map::new(),
                };
                Tool::new(t.name, t.description, Arc::new(schema))
            })
            .collect();
        Ok(ListToolsResult::with_all_items(tools))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let arguments = request.arguments.unwrap_or_default();
        let result = match tools::call(&request.name, &arguments) {
            Ok(value) => {
                let text = serde_json::to_string_pretty(&value).unwrap_or_default();
                let mut r = CallToolResult::structured(value);
                r.content = vec![ContentBlock::text(text)];
                r
            }
            Err(message) => CallToolResult::error(vec![ContentBlock::text(message)]),
        };
        Ok(result.into())
    }
}

/// Serves MCP on stdin/stdout until the client closes it.
pub fn run() -> ExitCode {
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            errln!("cannot start the MCP server: {e}");
            return ExitCode::FAILURE;
        }
    };
    let served = runtime.block_on(async {
        let service = ToonServer.serve(rmcp::transport::stdio()).await?;
        service.waiting().await?;
        Ok::<(), Box<dyn std::error::Error>>(())
    });
    match served {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            errln!("MCP server: {e}");
            ExitCode::FAILURE
        }
    }
}

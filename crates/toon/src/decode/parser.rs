//! The structural decoder: root form, objects, inline/tabular/keyed/list arrays and
//! list items (spec §5, §8–§10, §14), with the v4.4 strict and non-strict behaviour.

use super::header::{Field, Header, HeaderParse, parse_header};
use super::scanner::{Line, Scanner};
use super::tokens::{
    TokenError, find_unquoted, parse_key, parse_primitive, split_delimited, trim_spaces,
};
use crate::stack::guarded;
use crate::value::{Map, Value};
use crate::{DecodeOptions, Error, ErrorKind, Result};

/// Decodes a whole document.
pub(crate) fn decode_document(text: &str, options: &DecodeOptions) -> Result<Value> {
    if options.indent_size == 0 {
        return Err(Error::new(
            ErrorKind::Options,
            "indent size must be at least 1",
        ));
    }
    let mut d = Decoder {
        lines: Scanner::new(text, options.indent_size, options.strict),
        strict: options.strict,
        max_depth: options.max_depth,
        nesting: 0,
        cells: Vec::new(),
    };
    d.document()
}

struct Decoder<'a> {
    lines: Scanner<'a>,
    strict: bool,
    max_depth: usize,
    nesting: usize,
    cells: Vec<&'a str>,
}

fn tok(line: &Line<'_>, part: &str, e: TokenError) -> Error {
    line.error_at(part, e.offset, e.message)
}

fn over_indented(line: &Line<'_>, expected: usize) -> Error {
    line.error(format!(
        "Over-indented line: expected depth {expected}, but found {}",
        line.depth
    ))
}

fn is_array_header_content(content: &str) -> bool {
    trim_spaces(content).starts_with('[') && find_unquoted(content, b':', 0).is_some()
}

fn is_key_value_content(content: &str) -> bool {
    find_unquoted(content, b':', 0).is_some()
}

fn is_data_row(content: &str, delim: u8) -> bool {
    match find_unquoted(content, b':', 0) {
        None => true,
        Some(colon) => find_unquoted(content, delim, 0).is_some_and(|d| d < colon),
    }
}

impl<'a> Decoder<'a> {
    fn enter(&mut self, line: &Line<'_>) -> Result<()> {
        self.nesting += 1;
        if self.nesting > self.max_depth {
            return Err(Error::new(
                ErrorKind::Depth,
                format!("Nesting deeper than the limit of {} levels", self.max_depth),
            )
            .at(line.number, line.column_in(line.content, 0), line.raw));
        }
        Ok(())
    }

    fn leave(&mut self) {
        self.nesting -= 1;
    }

    /// Resolves a header parse: invalid headers error in both modes, strict-only
    /// errors (duplicate field names) in strict mode.
    fn resolve_header(
        &self,
        line: &Line<'a>,
        content: &'a str,
    ) -> Result<Option<(Header, Option<&'a str>)>> {
        match parse_header(content, self.max_depth) {
            HeaderParse::NotHeader => Ok(None),
            HeaderParse::Invalid(e) => Err(tok(line, content, e)),
            HeaderParse::Header {
                header,
                inline,
                strict_error,
            } => {
                if self.strict
                    && let Some(e) = strict_error
                {
                    return Err(tok(line, content, e));
                }
                Ok(Some((header, inline)))
            }
        }
    }

    fn assert_fully_consumed(&mut self) -> Result<()> {
        if let Some(line) = self.lines.peek()? {
            return Err(line.error("Unexpected content after the document root"));
        }
        Ok(())
    }

    fn document(&mut self) -> Result<Value> {
        let Some(first) = self.lines.peek()? else {
            return Ok(Value::Object(Map::new()));
        };
        if first.depth != 0 {
            return Err(over_indented(&first, 0));
        }
        if trim_spaces(first.content) == "[]" {
            self.lines.next_line()?;
            self.assert_fully_consumed()?;
            return Ok(Value::Array(Vec::new()));
        }
        if is_array_header_content(first.content)
            && let Some((header, inline)) = self.resolve_header(&first, first.content)?
        {
            self.lines.next_line()?;
            let value = self.array_from_header(header, inline, 0, &first)?;
            self.assert_fully_consumed()?;
            return Ok(value);
        }
        self.lines.next_line()?;
        let following = self.lines.peek()?;
        let first_is_kv = is_key_value_content(first.content);
        if following.is_none() && !first_is_kv {
            return parse_primitive(first.content).map_err(|e| tok(&first, first.content, e));
        }
        if !first_is_kv && following.is_some_and(|l| l.depth == 0) {
            return Err(
                first.error("Top-level document must start with a key-value or array-header line")
            );
        }
        let mut map = Map::new();
        self.key_value(first, 0, &mut map)?;
        while let Some(line) = self.lines.peek()? {
            if line.depth != 0 {
                return Err(over_indented(&line, 0));
            }
            self.lines.next_line()?;
            self.key_value(line, 0, &mut map)?;
        }
        Ok(Value::Object(map))
    }

    fn insert(&self, map: &mut Map, key: String, line: &Line<'_>) -> Result<()> {
        if self.strict && map.contains_key(&key) {
            return Err(line.error(format!("Duplicate sibling key \"{key}\"")));
        }
        Ok(())
    }

    /// Decodes one key-value (or keyed header) line at `base_depth` into `map`.
    fn key_value(&mut self, line: Line<'a>, base_depth: usize, map: &mut Map) -> Result<()> {
        let content = line.content;
        if let Some((header, inline)) = self.resolve_header(&line, content)? {
            let Some(key) = header.key.clone() else {
                return Err(line.error(if header.keyed {
                    "Keyless keyed header is only valid at the document root"
                } else {
                    "Keyless array header is only valid at the document root or as a list item"
                }));
            };
            self.insert(map, key.clone(), &line)?;
            let value = self.array_from_header(header, inline, base_depth, &line)?;
            map.insert(key, value);
            return Ok(());
        }
        let (key, end) = parse_key(content).map_err(|e| tok(&line, content, e))?;
        self.insert(map, key.clone(), &line)?;
        let rest = trim_spaces(&content[end..]);
        let value = if rest.is_empty() {
            match self.lines.peek()? {
                Some(next) if next.depth > base_depth => {
                    self.assert_no_depth_jump(&next, base_depth)?;
                    self.enter(&line)?;
                    let fields = guarded(|| self.object_fields(base_depth + 1))?;
                    self.leave();
                    Value::Object(fields)
                }
                _ => Value::Object(Map::new()),
            }
        } else if rest == "[]" {
            Value::Array(Vec::new())
        } else {
            parse_primitive(rest).map_err(|e| tok(&line, rest, e))?
        };
        map.insert(key, value);
        Ok(())
    }

    fn assert_no_depth_jump(&self, next: &Line<'_>, parent: usize) -> Result<()> {
        if self.strict && next.depth > parent + 1 {
            return Err(next.error(format!(
                "Indentation depth jump: expected depth {}, but found {}",
                parent + 1,
                next.depth
            )));
        }
        Ok(())
    }

    fn object_fields(&mut self, base_depth: usize) -> Result<Map> {
        let mut map = Map::new();
        let mut depth = None;
        while let Some(line) = self.lines.peek()? {
            if line.depth < base_depth {
                break;
            }
            let d = *depth.get_or_insert(line.depth);
            if line.depth != d {
                return Err(over_indented(&line, d));
            }
            self.lines.next_line()?;
            self.key_value(line, d, &mut map)?;
        }
        Ok(map)
    }

    /// The depth of a scope's content: one below the parent, or in non-strict mode the
    /// depth of a first line that sits deeper.
    fn scope_content_depth(&mut self, base_depth: usize) -> Result<usize> {
        match self.lines.peek()? {
            Some(first) if first.depth > base_depth + 1 => {
                self.assert_no_depth_jump(&first, base_depth)?;
                Ok(first.depth)
            }
            _ => Ok(base_depth + 1),
        }
    }

    fn array_from_header(
        &mut self,
        header: Header,
        inline: Option<&'a str>,
        base_depth: usize,
        header_line: &Line<'a>,
    ) -> Result<Value> {
        self.enter(header_line)?;
        let value = guarded(|| self.array_body(header, inline, base_depth, header_line))?;
        self.leave();
        Ok(value)
    }

    fn array_body(
        &mut self,
        header: Header,
        inline: Option<&'a str>,
        base_depth: usize,
        header_line: &Line<'a>,
    ) -> Result<Value> {
        Ok(if header.keyed {
            self.keyed_object(&header, base_depth, header_line)?
        } else if let Some(inline) = inline {
            self.inline_array(&header, inline, header_line)?
        } else if header.fields.as_ref().is_some_and(|f| !f.is_empty()) {
            self.tabular_array(&header, base_depth, header_line)?
        } else {
            self.list_array(&header, base_depth, header_line)?
        })
    }

    fn count_error(line: &Line<'_>, expected: usize, what: &str, got: usize) -> Error {
        line.error(format!("Expected {expected} {what}, but got {got}"))
    }

    fn inline_array(&mut self, header: &Header, inline: &'a str, line: &Line<'a>) -> Result<Value> {
        let mut cells = std::mem::take(&mut self.cells);
        split_delimited(inline, header.delimiter, &mut cells);
        let mut items = Vec::with_capacity(cells.len());
        for cell in &cells {
            items.push(parse_primitive(cell).map_err(|e| tok(line, cell, e))?);
        }
        self.cells = cells;
        if self.strict && items.len() != header.length {
            return Err(Self::count_error(
                line,
                header.length,
                "inline-form values",
                items.len(),
            ));
        }
        Ok(Value::Array(items))
    }

    fn row_object(&self, fields: &[Field], cells: &[&str], line: &Line<'_>) -> Result<Map> {
        let mut next = 0;
        build_row(fields, cells, &mut next, line)
    }

    fn check_blank_span(&self, start: Option<usize>, end: usize, what: &str) -> Result<()> {
        if let Some(start) = start
            && let Some(blank) = self.lines.blank_between(start, end)
        {
            return Err(Error::syntax(
                format!("Blank lines inside {what} are not allowed in strict mode"),
                blank,
                1,
                "",
            ));
        }
        Ok(())
    }

    fn keyed_object(
        &mut self,
        header: &Header,
        base_depth: usize,
        header_line: &Line<'a>,
    ) -> Result<Value> {
        let entry_depth = self.scope_content_depth(base_depth)?;
        let leaves = header.leaf_count();
        let fields = header.fields.as_deref().unwrap_or(&[]);
        let mut map = Map::new();
        let mut count = 0usize;
        let (mut start, mut end) = (None, 0);
        let mut last = *header_line;
        let mut cells = std::mem::take(&mut self.cells);
        while let Some(line) = self.lines.peek()? {
            if line.depth <= base_depth {
                break;
            }
            if line.depth != entry_depth {
                return Err(over_indented(&line, entry_depth));
            }
            if find_unquoted(line.content, b':', 0).is_none() {
                return Err(line.error("Expected entry row inside keyed tabular object"));
            }
            self.lines.next_line()?;
            start.get_or_insert(line.number);
            end = line.number;
            last = line;
            let (key, key_end) =
                parse_key(line.content).map_err(|e| tok(&line, line.content, e))?;
            self.insert(&mut map, key.clone(), &line)?;
            let rest = trim_spaces(&line.content[key_end..]);
            if rest.is_empty() {
                cells.clear();
            } else {
                split_delimited(rest, header.delimiter, &mut cells);
            }
            if cells.len() != leaves {
                return Err(Self::count_error(
                    &line,
                    leaves,
                    "keyed entry cells",
                    cells.len(),
                ));
            }
            let entry = self.row_object(fields, &cells, &line)?;
            map.insert(key, Value::Object(entry));
            count += 1;
        }
        self.cells = cells;
        if self.strict {
            if count != header.length {
                return Err(Self::count_error(
                    &last,
                    header.length,
                    "keyed entries",
                    count,
                ));
            }
            self.check_blank_span(start, end, "keyed tabular object")?;
        }
        Ok(Value::Object(map))
    }

    fn tabular_array(
        &mut self,
        header: &Header,
        base_depth: usize,
        header_line: &Line<'a>,
    ) -> Result<Value> {
        let row_depth = self.scope_content_depth(base_depth)?;
        let leaves = header.leaf_count();
        let fields = header.fields.as_deref().unwrap_or(&[]);
        let mut rows = Vec::new();
        let (mut start, mut end) = (None, 0);
        let mut last = *header_line;
        let mut cells = std::mem::take(&mut self.cells);
        while !self.strict || rows.len() < header.length {
            let Some(line) = self.lines.peek()? else {
                break;
            };
            if line.depth <= base_depth {
                break;
            }
            if line.depth != row_depth {
                return Err(over_indented(&line, row_depth));
            }
            if !is_data_row(line.content, header.delimiter) {
                break;
            }
            start.get_or_insert(line.number);
            end = line.number;
            last = line;
            self.lines.next_line()?;
            split_delimited(line.content, header.delimiter, &mut cells);
            if cells.len() != leaves {
                return Err(Self::count_error(
                    &line,
                    leaves,
                    "tabular row values",
                    cells.len(),
                ));
            }
            rows.push(Value::Object(self.row_object(fields, &cells, &line)?));
        }
        self.cells = cells;
        if self.strict {
            if rows.len() != header.length {
                return Err(Self::count_error(
                    &last,
                    header.length,
                    "tabular rows",
                    rows.len(),
                ));
            }
            self.check_blank_span(start, end, "tabular array")?;
            if let Some(next) = self.lines.peek()?
                && next.depth == row_depth
                && !next.content.starts_with("- ")
                && is_data_row(next.content, header.delimiter)
            {
                return Err(next.error(format!(
                    "Expected {} tabular rows, but found more",
                    header.length
                )));
            }
        }
        Ok(Value::Array(rows))
    }

    fn list_array(
        &mut self,
        header: &Header,
        base_depth: usize,
        header_line: &Line<'a>,
    ) -> Result<Value> {
        let item_depth = self.scope_content_depth(base_depth)?;
        let mut items = Vec::new();
        let (mut start, mut end) = (None, 0);
        let mut last = *header_line;
        while !self.strict || items.len() < header.length {
            let Some(line) = self.lines.peek()? else {
                break;
            };
            if line.depth <= base_depth {
                break;
            }
            if line.depth != item_depth {
                return Err(over_indented(&line, item_depth));
            }
            if !(line.content.starts_with("- ") || line.content == "-") {
                break;
            }
            start.get_or_insert(line.number);
            items.push(guarded(|| self.list_item(item_depth))?);
            if let Some(consumed) = self.lines.last_consumed {
                last = consumed;
                end = consumed.number;
            }
        }
        if self.strict {
            if items.len() != header.length {
                return Err(Self::count_error(
                    &last,
                    header.length,
                    "list-form items",
                    items.len(),
                ));
            }
            self.check_blank_span(start, end, "list-form array")?;
            if let Some(next) = self.lines.peek()?
                && next.depth == item_depth
                && next.content.starts_with("- ")
            {
                return Err(next.error(format!(
                    "Expected {} list-form items, but found more",
                    header.length
                )));
            }
        }
        Ok(Value::Array(items))
    }

    fn list_item(&mut self, base_depth: usize) -> Result<Value> {
        let Some(line) = self.lines.next_line()? else {
            return Ok(Value::Null);
        };
        if line.content == "-" {
            return Ok(Value::Object(Map::new()));
        }
        let Some(after) = line.content.strip_prefix("- ") else {
            return Err(line.error("Expected list item to start with \"- \""));
        };
        let after = after.trim_start_matches(' ');
        if trim_spaces(after).is_empty() {
            return Ok(Value::Object(Map::new()));
        }
        if trim_spaces(after) == "[]" {
            return Ok(Value::Array(Vec::new()));
        }
        let item = line.with_content(after);
        let parsed = self.resolve_header(&item, after)?;
        if is_array_header_content(after)
            && let Some((header, inline)) = parsed.clone()
        {
            if header.keyed {
                return Err(item.error("Keyless keyed header is only valid at the document root"));
            }
            if header.fields.is_some() {
                return Err(item
                    .error("Keyless header with a field list is only valid at the document root"));
            }
            return self.array_from_header(header, inline, base_depth, &item);
        }
        if let Some((header, inline)) = parsed
            && header.fields.is_some()
            && let Some(key) = header.key.clone()
        {
            self.enter(&item)?;
            let mut map = Map::new();
            let value = self.array_from_header(header, inline, base_depth + 1, &item)?;
            map.insert(key, value);
            self.sibling_fields(base_depth + 1, &mut map)?;
            self.leave();
            return Ok(Value::Object(map));
        }
        if is_key_value_content(after) {
            self.enter(&item)?;
            let mut map = Map::new();
            self.key_value(item, base_depth + 1, &mut map)?;
            self.sibling_fields(base_depth + 1, &mut map)?;
            self.leave();
            return Ok(Value::Object(map));
        }
        parse_primitive(after).map_err(|e| tok(&item, after, e))
    }

    fn sibling_fields(&mut self, depth: usize, map: &mut Map) -> Result<()> {
        while let Some(next) = self.lines.peek()? {
            if next.depth < depth {
                break;
            }
            if next.depth != depth {
                return Err(over_indented(&next, depth));
            }
            self.lines.next_line()?;
            self.key_value(next, depth, map)?;
        }
        Ok(())
    }
}

/// Materialises one row's cells into an object along the field list, depth first.
fn build_row(fields: &[Field], cells: &[&str], next: &mut usize, line: &Line<'_>) -> Result<Map> {
    let mut map = Map::with_capacity(fields.len());
    for field in fields {
        let value = match &field.children {
            Some(children) => Value::Object(build_row(children, cells, next, line)?),
            None => {
                let cell = cells.get(*next).copied().unwrap_or("");
                *next += 1;
                parse_primitive(cell).map_err(|e| tok(line, cell, e))?
            }
        };
        map.insert(field.name.clone(), value);
    }
    Ok(map)
}

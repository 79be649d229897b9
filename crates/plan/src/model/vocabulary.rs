//! The closed vocabularies the seed dialects define for free-text fields: a task's
//! status (Cursor todos), a stage's mode (staged plans), a step's kind (staged
//! intents, workflow step types). The model stores the text as the source wrote it
//! ([`Task::status`], [`Group::mode`], [`Task::kind`]); these enums are its typed view,
//! with an `Other` case that keeps any text outside the vocabulary.

use std::fmt;

use serde::{Serialize, Serializer};

use super::{Group, Task};

/// An enum over a vocabulary of texts, with `Other` for the rest.
macro_rules! vocabulary {
    ($(#[$doc:meta])* $name:ident { $($(#[$vdoc:meta])* $variant:ident = $text:literal,)* }) => {
        $(#[$doc])*
        #[derive(Clone, Debug, PartialEq, Eq, Hash)]
        pub enum $name {
            $($(#[$vdoc])* $variant,)*
            /// Any other text, kept as it is.
            Other(String),
        }

        impl $name {
            /// Every value of the vocabulary (not `Other`), in the seed's order.
            pub const ALL: &'static [$name] = &[$($name::$variant,)*];

            /// The text, as the dialect writes it.
            pub fn as_str(&self) -> &str {
                match self {
                    $($name::$variant => $text,)*
                    $name::Other(s) => s,
                }
            }

            /// The value a text names: one of the vocabulary's exactly, else `Other`.
            pub fn from_text(text: &str) -> $name {
                match text {
                    $($text => $name::$variant,)*
                    other => $name::Other(other.to_owned()),
                }
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl From<&str> for $name {
            fn from(text: &str) -> $name {
                $name::from_text(text)
            }
        }

        impl Serialize for $name {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.serialize_str(self.as_str())
            }
        }
    };
}

vocabulary! {
    /// A task's progress (Cursor todo `status`).
    Status {
        /// Not started.
        Pending = "pending",
        /// Under way.
        InProgress = "in_progress",
        /// Done.
        Completed = "completed",
        /// Given up.
        Cancelled = "cancelled",
    }
}

vocabulary! {
    /// How a stage's steps run (staged plan `mode`).
    StageMode {
        /// All at once.
        Parallel = "parallel",
        /// One after another.
        Sequence = "sequence",
    }
}

vocabulary! {
    /// What kind of work a step is: a staged step's `intent` or a workflow step's
    /// `step_type`.
    StepKind {
        /// Staged: find things out.
        Research = "research",
        /// Staged: work through material.
        Analysis = "analysis",
        /// Staged: write a first version.
        Draft = "draft",
        /// Staged: revise.
        Edit = "edit",
        /// Staged: make something new.
        Create = "create",
        /// Staged: change something that exists.
        Update = "update",
        /// Staged: check.
        Review = "review",
        /// Workflow: an agent runs it.
        AgentExecution = "AGENT_EXECUTION",
        /// Workflow: data is transformed.
        DataProcessing = "DATA_PROCESSING",
        /// Workflow: data is analysed.
        WorkflowAnalysis = "ANALYSIS",
        /// Workflow: a chart or view is made.
        Visualization = "VISUALIZATION",
        /// Workflow: a condition decides what runs.
        ConditionCheck = "CONDITION_CHECK",
        /// Workflow: steps run side by side.
        ParallelExecution = "PARALLEL_EXECUTION",
    }
}

impl Task {
    /// The status as its vocabulary's value (`None` when the task has none).
    ///
    /// ```
    /// use toon_plan::{Status, Task};
    /// let mut t = Task::new("a");
    /// t.set_status(Status::InProgress);
    /// assert_eq!(t.status.as_deref(), Some("in_progress"));
    /// assert_eq!(t.status_value(), Some(Status::InProgress));
    /// t.status = Some("blocked".into());
    /// assert_eq!(t.status_value(), Some(Status::Other("blocked".into())));
    /// ```
    pub fn status_value(&self) -> Option<Status> {
        self.status.as_deref().map(Status::from_text)
    }

    /// Sets the status.
    pub fn set_status(&mut self, status: Status) {
        self.status = Some(status.as_str().to_owned());
    }

    /// The kind as its vocabulary's value (`None` when the task has none).
    pub fn kind_value(&self) -> Option<StepKind> {
        self.kind.as_deref().map(StepKind::from_text)
    }

    /// Sets the kind.
    pub fn set_kind(&mut self, kind: StepKind) {
        self.kind = Some(kind.as_str().to_owned());
    }
}

impl Group {
    /// The mode as its vocabulary's value (`None` when the group has none).
    pub fn mode_value(&self) -> Option<StageMode> {
        self.mode.as_deref().map(StageMode::from_text)
    }

    /// Sets the mode.
    pub fn set_mode(&mut self, mode: StageMode) {
        self.mode = Some(mode.as_str().to_owned());
    }
}

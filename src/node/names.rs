//! ROS 2 names: the node's name and namespace, and topic names expanded and remapped
//! as rcl does (`~/x` is private to the node, `x` is in its namespace, `/x` is absolute;
//! a remap rule matches the expanded name).
use crate::node::arguments::{Remap, RosArguments};

/// Why a name is not a valid ROS name.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NameError {
    #[error("node name '{name}': {problem}")]
    NodeName { name: String, problem: TokenError },
    #[error("namespace '{namespace}': {problem}")]
    Namespace { namespace: String, problem: TokenError },
    #[error("topic name '{topic}': {problem}")]
    TopicName { topic: String, problem: TokenError },
}

/// What is wrong with one path element (token) of a name.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TokenError {
    #[error("has an empty element (a doubled or trailing '/')")]
    Empty,
    #[error("'{0}' starts with a digit")]
    LeadingDigit(String),
    #[error("'{token}' has the character '{character}'")]
    BadCharacter { token: String, character: char },
}

/// The node's name, namespace and remapping rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NodeNames {
    pub name: String,
    /// Absolute, without a trailing slash except for the root `/`.
    pub namespace: String,
    remaps: Vec<Remap>,
}

impl NodeNames {
    /// From the ROS arguments (`__node`, `__ns`, `-r`), with `default_name` when none
    /// renames the node. `ROS_NAMESPACE` is not read: rcl does not either.
    pub fn new(default_name: &str, args: &RosArguments) -> Result<Self, NameError> {
        let name = args.node_name.clone().unwrap_or_else(|| default_name.to_string());
        check_token(&name).map_err(|problem| NameError::NodeName { name: name.clone(), problem })?;
        let namespace = normalize_namespace(args.namespace.as_deref().unwrap_or("/"))?;
        let remaps = args.remaps.iter().filter(|r| r.node.as_deref().is_none_or(|n| n == name)).cloned().collect();
        Ok(Self { name, namespace, remaps })
    }

    /// The fully qualified node name, `/ns/name`.
    pub fn fully_qualified(&self) -> String {
        join(&self.namespace, &self.name)
    }

    /// `topic` expanded to an absolute name, before remapping.
    pub fn expand(&self, topic: &str) -> Result<String, NameError> {
        let expanded = if topic == "~" {
            self.fully_qualified()
        } else if let Some(rest) = topic.strip_prefix("~/") {
            join(&self.fully_qualified(), rest)
        } else if topic.starts_with('/') {
            topic.to_string()
        } else {
            join(&self.namespace, topic)
        };
        for token in expanded.split('/').skip(1) {
            check_token(token).map_err(|problem| NameError::TopicName { topic: topic.to_string(), problem })?;
        }
        Ok(expanded)
    }

    /// `topic` expanded and remapped: the name on the ROS graph.
    pub fn resolve(&self, topic: &str) -> Result<String, NameError> {
        let expanded = self.expand(topic)?;
        for rule in &self.remaps {
            if self.expand(&rule.from).is_ok_and(|from| from == expanded) {
                return self.expand(&rule.to);
            }
        }
        Ok(expanded)
    }
}

fn join(namespace: &str, name: &str) -> String {
    if namespace == "/" { format!("/{name}") } else { format!("{namespace}/{name}") }
}

fn normalize_namespace(ns: &str) -> Result<String, NameError> {
    let trimmed = ns.trim_end_matches('/');
    let absolute = if trimmed.starts_with('/') { trimmed.to_string() } else { format!("/{trimmed}") };
    if absolute == "/" {
        return Ok(absolute);
    }
    for token in absolute.split('/').skip(1) {
        check_token(token).map_err(|problem| NameError::Namespace { namespace: ns.to_string(), problem })?;
    }
    Ok(absolute)
}

/// One path element of a name: letters, digits and underscores, not starting with a
/// digit, not empty.
fn check_token(token: &str) -> Result<(), TokenError> {
    if token.is_empty() {
        return Err(TokenError::Empty);
    }
    if token.starts_with(|c: char| c.is_ascii_digit()) {
        return Err(TokenError::LeadingDigit(token.to_string()));
    }
    if let Some(character) = token.chars().find(|c| !(c.is_ascii_alphanumeric() || *c == '_')) {
        return Err(TokenError::BadCharacter { token: token.to_string(), character });
    }
    Ok(())
}

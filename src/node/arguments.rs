//! The ROS 2 command line: what `ros2 run` and `ros2 launch` pass after `--ros-args`
//! (rcl's arguments: `-r`/`--remap`, `-p`/`--param`, `--params-file`, `--log-level`,
//! `-e`/`--enclave`, the rosout and stdout switches), up to a closing `--`.
use std::path::PathBuf;

/// Why the ROS arguments were refused (rcl refuses the same).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RosArgumentError {
    /// A flag that takes a value ends the command line.
    #[error("{flag} needs a value")]
    MissingValue { flag: String },
    #[error("-p '{rule}' is not name:=value")]
    ParamNotAssignment { rule: String },
    #[error("-p '{rule}' has no parameter name")]
    ParamWithoutName { rule: String },
    #[error("-r '{rule}' is not from:=to")]
    RemapNotAssignment { rule: String },
    #[error("-r '{rule}' has an empty side")]
    RemapEmptySide { rule: String },
    #[error("unknown ROS argument '{0}'")]
    Unknown(String),
}

/// A `from:=to` name remapping, for every node or (with `node:` in front) for one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Remap {
    /// The node the rule is for; `None`: every node.
    pub node: Option<String>,
    pub from: String,
    pub to: String,
}

/// What the ROS arguments say.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RosArguments {
    /// Name remappings, `__node` and `__ns` excluded (in `node_name`, `namespace`).
    pub remaps: Vec<Remap>,
    /// `__node:=NAME`.
    pub node_name: Option<String>,
    /// `__ns:=/NS`.
    pub namespace: Option<String>,
    /// `-p name:=value` (value as YAML text), in order.
    pub parameters: Vec<(String, String)>,
    /// `--params-file FILE`, in order.
    pub params_files: Vec<PathBuf>,
    /// `--log-level [logger:=]LEVEL`.
    pub log_levels: Vec<String>,
    /// Arguments outside `--ros-args ... --` (the program's own).
    pub unparsed: Vec<String>,
}

impl RosArguments {
    /// Parses a command line (without the program name). Unknown flags inside
    /// `--ros-args` are errors, as rcl makes them.
    pub fn parse(args: &[String]) -> Result<Self, RosArgumentError> {
        let mut parsed = Self::default();
        let mut in_ros_args = false;
        let mut i = 0;
        while i < args.len() {
            let arg = args[i].as_str();
            i += 1;
            if arg == "--ros-args" {
                in_ros_args = true;
                continue;
            }
            if !in_ros_args {
                parsed.unparsed.push(arg.to_string());
                continue;
            }
            if arg == "--" {
                in_ros_args = false;
                continue;
            }
            let mut value = |flag: &str| -> Result<String, RosArgumentError> {
                let v = args.get(i).cloned().ok_or_else(|| RosArgumentError::MissingValue { flag: flag.to_string() })?;
                i += 1;
                Ok(v)
            };
            match arg {
                "-r" | "--remap" => parsed.add_remap(&value(arg)?)?,
                "-p" | "--param" => {
                    let rule = value(arg)?;
                    let Some((name, v)) = rule.split_once(":=") else {
                        return Err(RosArgumentError::ParamNotAssignment { rule });
                    };
                    if name.is_empty() {
                        return Err(RosArgumentError::ParamWithoutName { rule });
                    }
                    parsed.parameters.push((name.to_string(), v.to_string()));
                }
                "--params-file" => parsed.params_files.push(PathBuf::from(value(arg)?)),
                "--log-level" => parsed.log_levels.push(value(arg)?),
                "-e" | "--enclave" | "--log-config-file" | "--log-file-name" => {
                    value(arg)?;
                }
                "--enable-rosout-logs"
                | "--disable-rosout-logs"
                | "--enable-stdout-logs"
                | "--disable-stdout-logs"
                | "--enable-external-lib-logs"
                | "--disable-external-lib-logs" => {}
                other => return Err(RosArgumentError::Unknown(other.to_string())),
            }
        }
        Ok(parsed)
    }

    fn add_remap(&mut self, rule: &str) -> Result<(), RosArgumentError> {
        let (from, to) = rule.split_once(":=").ok_or_else(|| RosArgumentError::RemapNotAssignment { rule: rule.to_string() })?;
        let (node, from) = match from.split_once(':') {
            Some((node, from)) if !node.is_empty() && !node.starts_with('/') && !node.starts_with('~') => (Some(node.to_string()), from),
            _ => (None, from),
        };
        if from.is_empty() || to.is_empty() {
            return Err(RosArgumentError::RemapEmptySide { rule: rule.to_string() });
        }
        match from {
            "__node" | "__name" => self.node_name = Some(to.to_string()),
            "__ns" => self.namespace = Some(to.to_string()),
            _ => self.remaps.push(Remap { node, from: from.to_string(), to: to.to_string() }),
        }
        Ok(())
    }

    /// The logging level the arguments ask of this program (`--log-level LEVEL`, or
    /// `--log-level NODE:=LEVEL` for this node), in `log`'s terms.
    pub fn log_level(&self, node_name: &str) -> Option<log::LevelFilter> {
        let mut level = None;
        for entry in &self.log_levels {
            let text = match entry.split_once(":=") {
                Some((logger, l)) if logger == node_name => l,
                Some(_) => continue,
                None => entry.as_str(),
            };
            level = match text.to_ascii_lowercase().as_str() {
                "debug" => Some(log::LevelFilter::Debug),
                "info" => Some(log::LevelFilter::Info),
                "warn" => Some(log::LevelFilter::Warn),
                "error" | "fatal" => Some(log::LevelFilter::Error),
                "unset" => None,
                _ => level,
            };
        }
        level
    }
}

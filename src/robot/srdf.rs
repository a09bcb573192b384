//! SRDF `disable_collisions`: link pairs never checked against each other.
use super::Robot;
use crate::error::{InputError, InputResult};
use std::path::Path;

/// A `<disable_collisions link1=".." link2=".." reason=".."/>` entry.
#[derive(Clone, Debug, PartialEq)]
pub struct DisabledPair {
    pub link1: String,
    pub link2: String,
    pub reason: Option<String>,
}

/// Reads the disabled pairs of `robot`'s SRDF: an SRDF written for another robot (its
/// `<robot name>` differs from the URDF's, or its pairs name links the URDF lacks) is an
/// error that names both robots, not a list of warnings and a check of the wrong robot.
pub fn parse_for_robot(text: &str, path: &Path, robot: &Robot) -> InputResult<Vec<DisabledPair>> {
    let pairs = parse_disabled_pairs(text, path)?;
    let doc = roxmltree::Document::parse(text).map_err(|e| InputError::in_file(path, format!("malformed SRDF: {e}")))?;
    let srdf_robot = doc.root_element().attribute("name").unwrap_or("");
    if !srdf_robot.is_empty() && srdf_robot != robot.name {
        return Err(InputError::in_file(path, format!("the SRDF is for robot '{srdf_robot}', but the URDF is robot '{}'", robot.name)));
    }
    if let Some(unknown) = pairs.iter().flat_map(|p| [&p.link1, &p.link2]).find(|l| robot.link_named(l).is_none()) {
        let of = if srdf_robot.is_empty() { String::new() } else { format!(" (an SRDF of robot '{srdf_robot}')") };
        return Err(InputError::in_file(path, format!("the SRDF{of} disables collisions of link '{unknown}', which robot '{}' of the URDF lacks", robot.name)));
    }
    Ok(pairs)
}

/// Reads the disabled pairs of an SRDF document.
pub fn parse_disabled_pairs(text: &str, path: &Path) -> InputResult<Vec<DisabledPair>> {
    let doc = roxmltree::Document::parse(text).map_err(|e| InputError::in_file(path, format!("malformed SRDF: {e}")))?;
    let root = doc.root_element();
    if root.tag_name().name() != "robot" {
        return Err(InputError::in_file(path, format!("malformed SRDF: root element is <{}>, expected <robot>", root.tag_name().name())));
    }
    let mut pairs = Vec::new();
    for node in root.children().filter(|n| n.has_tag_name("disable_collisions")) {
        let line = doc.text_pos_at(node.range().start).row;
        let attr = |name: &str| {
            node.attribute(name)
                .map(str::to_owned)
                .ok_or_else(|| InputError::in_file(path, format!("<disable_collisions> lacks the attribute '{name}'")).at(format!("line {line}")))
        };
        pairs.push(DisabledPair { link1: attr("link1")?, link2: attr("link2")?, reason: node.attribute("reason").map(str::to_owned) });
    }
    Ok(pairs)
}

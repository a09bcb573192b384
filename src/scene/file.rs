//! Scene files (YAML) as in the contract: `moveit_msgs/CollisionObject` with
//! `shape_msgs/SolidPrimitive` dimension conventions.
use super::object_parts::{PoseError, PrimitiveKind, pose_from_parts, solid_primitive};
use super::octomap_stream::voxel_map_from_bytes;
use super::{Obstacle, Scene};
use crate::error::{InputError, InputResult};
use crate::math::{Isometry3, Real, Vector3};
use crate::robot::resources::ResourceResolver;
use crate::shape::{Shape, VoxelMap};
use serde::Deserialize;
use std::path::Path;
use std::sync::Arc;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SceneFile {
    frame_id: Option<String>,
    #[serde(default)]
    objects: Vec<ObjectEntry>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ObjectEntry {
    id: String,
    #[serde(rename = "type")]
    kind: String,
    dimensions: Option<Vec<Real>>,
    mesh: Option<String>,
    scale: Option<[Real; 3]>,
    /// An octomap's `.bt` or `.ot` file.
    file: Option<String>,
    pose: Option<PoseEntry>,
}

/// `{position: [x, y, z], orientation: [x, y, z, w]}`, both optional.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub(crate) struct PoseEntry {
    position: Option<[Real; 3]>,
    orientation: Option<[Real; 4]>,
}

impl PoseEntry {
    pub(crate) fn to_isometry(&self, what: &str) -> InputResult<Isometry3> {
        pose_from_parts(self.position.unwrap_or([0.0; 3]), self.orientation.unwrap_or([0.0, 0.0, 0.0, 1.0])).map_err(|e| {
            let at = if matches!(e, PoseError::NotFinite) { format!("{what}.pose") } else { format!("{what}.pose.orientation") };
            InputError::new(e.to_string()).at(at)
        })
    }
}

/// Reads a scene file and the meshes and octomaps it names.
pub fn load_scene(path: &Path, resolver: &ResourceResolver) -> InputResult<Scene> {
    let text = resolver.read_text(path)?;
    parse_scene(&text, path, resolver)
}

/// Parses scene YAML; `path` names it in errors and anchors relative mesh paths.
pub fn parse_scene(text: &str, path: &Path, resolver: &ResourceResolver) -> InputResult<Scene> {
    let file: SceneFile = serde_norway::from_str(text).map_err(|e| InputError::in_file(path, format!("malformed scene: {e}")))?;
    let mut objects = Vec::with_capacity(file.objects.len());
    for (i, entry) in file.objects.iter().enumerate() {
        let what = format!("objects[{i}] ('{}')", entry.id);
        if objects.iter().any(|o: &Obstacle| o.id == entry.id) {
            return Err(InputError::in_file(path, format!("object id '{}' is used twice", entry.id)).at(what));
        }
        let shape = object_shape(entry, &what, path, resolver).map_err(|e| e.with_file(path))?;
        let pose = entry.pose.as_ref().map_or(Ok(Isometry3::identity()), |p| p.to_isometry(&what)).map_err(|e| e.with_file(path))?;
        objects.push(Obstacle { id: entry.id.clone(), shape, pose });
    }
    Ok(Scene { frame_id: file.frame_id, objects })
}

fn object_shape(entry: &ObjectEntry, what: &str, path: &Path, resolver: &ResourceResolver) -> InputResult<Shape> {
    if entry.kind == "octomap" {
        let uri = entry.file.as_ref().ok_or_else(|| InputError::new("an octomap object needs 'file' (its .bt or .ot file)").at(what.to_string()))?;
        if let Some(field) = [("dimensions", entry.dimensions.is_some()), ("mesh", entry.mesh.is_some()), ("scale", entry.scale.is_some())].iter().find(|f| f.1)
        {
            return Err(InputError::new(format!("an octomap object takes no '{}' (only 'file' and 'pose')", field.0)).at(format!("{what}.{}", field.0)));
        }
        let map_path = resolver.resolve(uri, path).map_err(|e| InputError::new(e.to_string()).at(format!("{what}.file")))?;
        return Ok(Shape::VoxelMap(Arc::new(load_octomap(resolver, &map_path).map_err(|e| e.at(what.to_string()))?)));
    }
    if entry.file.is_some() {
        return Err(InputError::new(format!("'file' is for octomap objects, not a {}", entry.kind)).at(format!("{what}.file")));
    }
    if entry.kind == "mesh" {
        let uri = entry.mesh.as_ref().ok_or_else(|| InputError::new("a mesh object needs 'mesh'").at(what.to_string()))?;
        let scale = Vector3::from(entry.scale.unwrap_or([1.0; 3]));
        if scale.iter().any(|v| !v.is_finite() || *v == 0.0) {
            return Err(InputError::new("scale must be finite and non-zero").at(format!("{what}.scale")));
        }
        let mesh_path = resolver.resolve(uri, path).map_err(|e| InputError::new(e.to_string()).at(format!("{what}.mesh")))?;
        return Ok(Shape::TriMesh(std::sync::Arc::new(crate::robot::load_mesh(resolver, &mesh_path, scale)?)));
    }
    let Some(kind) = PrimitiveKind::from_name(&entry.kind) else {
        return Err(InputError::new(format!("unknown type '{}' (box, sphere, cylinder, cone, mesh or octomap)", entry.kind)).at(format!("{what}.type")));
    };
    let dimensions = entry.dimensions.as_deref().unwrap_or_default();
    match solid_primitive(kind, dimensions) {
        Ok(shape) => Ok(shape),
        Err(_) if entry.dimensions.is_none() => Err(InputError::new(format!("a {} needs dimensions", entry.kind)).at(what.to_string())),
        Err(e) => Err(InputError::new(e.to_string()).at(format!("{what}.dimensions"))),
    }
}

/// Reads an octomap file (`.bt` or `.ot`, told by its first line), naming it in the error.
fn load_octomap(resolver: &ResourceResolver, path: &Path) -> InputResult<VoxelMap> {
    let bytes = resolver.read(path)?;
    voxel_map_from_bytes(&bytes).map_err(|e| InputError::in_file(path, format!("cannot read octomap: {e}")))
}

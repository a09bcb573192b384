//! Mesh files (STL, OBJ, COLLADA) into triangle meshes, with `mesh-loader`.
use super::resources::ResourceResolver;
use crate::error::{InputError, InputResult};
use crate::math::{Point3, Real, Vector3};
use crate::panic_guard::guarded;
use crate::shape::TriMesh;
use std::path::Path;

/// Loads every mesh in the file as one triangle mesh, scaled per axis.
pub fn load_mesh(resolver: &ResourceResolver, path: &Path, scale: Vector3) -> InputResult<TriMesh> {
    let bytes = resolver.read(path)?;
    let extension = path.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase).unwrap_or_default();
    if !matches!(extension.as_str(), "stl" | "obj" | "dae") {
        return Err(InputError::in_file(path, format!("unsupported mesh format '.{extension}' (STL, OBJ and DAE are supported)")));
    }
    let loader = mesh_loader::Loader::default().merge_meshes(true);
    // The OBJ loader may look for material files beside the mesh; an absent one is not an error here.
    // mesh-loader 0.1's COLLADA reader panics on some malformed files (an index into a
    // map it did not fill, `tests/cli/mutated_input.rs` found it): that is a bad file here,
    // said once (the guard keeps Rust's panic message off stderr).
    let loaded = guarded(|| loader.load_from_slice(&bytes, path));
    let scene = match loaded {
        Ok(result) => result.map_err(|e| InputError::in_file(path, format!("cannot parse mesh: {e}")))?,
        Err(_) => return Err(InputError::in_file(path, "cannot parse mesh: the mesh reader (mesh-loader) failed on this malformed file")),
    };
    let mut vertices = Vec::new();
    let mut triangles = Vec::new();
    for mesh in &scene.meshes {
        let base = vertices.len() as u32;
        vertices.extend(mesh.vertices.iter().map(|v| Point3::new(v[0] as Real * scale.x, v[1] as Real * scale.y, v[2] as Real * scale.z)));
        triangles.extend(mesh.faces.iter().map(|f| [f[0] + base, f[1] + base, f[2] + base]));
    }
    TriMesh::new(vertices, triangles).map_err(|e| InputError::in_file(path, e.to_string()))
}

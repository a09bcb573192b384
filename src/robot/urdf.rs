//! URDF into [`Robot`], with `urdf-rs` for the XML and [`resources`](super::resources)
//! for the meshes.
use super::mesh_file::load_mesh;
use super::model::{CollisionElement, Joint, JointKind, Link, MeshSource, Mimic, Robot};
use super::resources::ResourceResolver;
use crate::error::{InputError, InputResult};
use crate::math::{Isometry3, Real, Translation3, UnitQuaternion, Vector3};
use crate::shape::{Ball, Capsule, Cuboid, Cylinder, Shape, TriMesh};
use std::collections::{HashMap, VecDeque};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Reads a URDF file and everything it names.
pub fn load_urdf(path: &Path, resolver: &ResourceResolver) -> InputResult<Robot> {
    let text = resolver.read_text(path)?;
    parse_urdf(&text, path, resolver)
}

/// Parses URDF text; `path` is where it came from (for relative meshes and messages).
pub fn parse_urdf(text: &str, path: &Path, resolver: &ResourceResolver) -> InputResult<Robot> {
    let urdf = urdf_rs::read_from_string(text).map_err(|e| InputError::in_file(path, format!("malformed URDF: {e}")))?;
    build_robot(&urdf, path, resolver).map_err(|e| e.with_file(path))
}

fn pose(p: &urdf_rs::Pose, what: &str) -> InputResult<Isometry3> {
    let values = p.xyz.0.iter().chain(p.rpy.0.iter());
    if values.clone().any(|v| !v.is_finite()) {
        return Err(InputError::new("origin has a value that is not finite").at(what));
    }
    let [x, y, z] = p.xyz.0;
    let [r, pi, ya] = p.rpy.0;
    Ok(Isometry3::from_parts(Translation3::new(x, y, z), UnitQuaternion::from_euler_angles(r, pi, ya)))
}

fn positive(value: Real, what: &str) -> InputResult<Real> {
    if value.is_finite() && value > 0.0 { Ok(value) } else { Err(InputError::new(format!("must be a positive finite number, not {value}")).at(what)) }
}

fn build_robot(urdf: &urdf_rs::Robot, path: &Path, resolver: &ResourceResolver) -> InputResult<Robot> {
    let mut link_index = HashMap::new();
    for (i, l) in urdf.links.iter().enumerate() {
        if link_index.insert(l.name.clone(), i).is_some() {
            return Err(InputError::new(format!("link '{}' is defined twice", l.name)));
        }
    }
    if urdf.links.is_empty() {
        return Err(InputError::new("the robot has no links"));
    }
    let mut mesh_cache: HashMap<(PathBuf, [u64; 3]), Arc<TriMesh>> = HashMap::new();
    let mut links = Vec::with_capacity(urdf.links.len());
    for l in &urdf.links {
        let mut collision = Vec::new();
        for (k, c) in l.collision.iter().enumerate() {
            let what = format!("link '{}' collision {k}", l.name);
            let shape = geometry(&c.geometry, &what, path, resolver, &mut mesh_cache)?;
            let mesh_source = mesh_source(&c.geometry, path, resolver);
            collision.push(CollisionElement { shape, origin: pose(&c.origin, &what)?, mesh_source });
        }
        links.push(Link { name: l.name.clone(), collision });
    }

    let link_of = |name: &str, what: &str| link_index.get(name).copied().ok_or_else(|| InputError::new(format!("unknown link '{name}'")).at(what.to_string()));
    let mut joints = Vec::with_capacity(urdf.joints.len());
    let mut joint_index = HashMap::new();
    let mut has_parent = vec![false; links.len()];
    for j in &urdf.joints {
        let what = format!("joint '{}'", j.name);
        let kind = match j.joint_type {
            urdf_rs::JointType::Revolute => JointKind::Revolute,
            urdf_rs::JointType::Continuous => JointKind::Continuous,
            urdf_rs::JointType::Prismatic => JointKind::Prismatic,
            urdf_rs::JointType::Fixed => JointKind::Fixed,
            ref other => return Err(InputError::new(format!("joint type {other:?} is not supported")).at(what)),
        };
        let child_link = link_of(&j.child.link, &what)?;
        if std::mem::replace(&mut has_parent[child_link], true) {
            return Err(InputError::new(format!("link '{}' has two parent joints", j.child.link)).at(what));
        }
        let axis = Vector3::from(j.axis.xyz.0);
        let axis = match kind {
            JointKind::Fixed => Vector3::x(),
            _ if axis.iter().all(|v| v.is_finite()) && axis.norm() > 0.0 => axis.normalize(),
            _ => return Err(InputError::new("axis must be a finite non-zero vector").at(what)),
        };
        let (lower, upper) = match kind {
            JointKind::Continuous | JointKind::Fixed => (Real::NEG_INFINITY, Real::INFINITY),
            _ => {
                let (lo, hi) = (j.limit.lower, j.limit.upper);
                if lo.is_nan() || hi.is_nan() || lo > hi {
                    return Err(InputError::new(format!("limit lower {lo} / upper {hi} is not a valid range")).at(what));
                }
                (lo, hi)
            }
        };
        if joint_index.insert(j.name.clone(), joints.len()).is_some() {
            return Err(InputError::new("joint is defined twice").at(what));
        }
        joints.push(Joint {
            name: j.name.clone(),
            kind,
            parent_link: link_of(&j.parent.link, &what)?,
            child_link,
            origin: pose(&j.origin, &what)?,
            axis,
            lower,
            upper,
            max_velocity: match kind {
                JointKind::Fixed => Real::INFINITY,
                _ if j.limit.velocity > 0.0 => j.limit.velocity,
                _ => Real::INFINITY,
            },
            mimic: None,
            variable: None,
        });
    }
    // Mimic joints, once every joint is known.
    for (i, j) in urdf.joints.iter().enumerate() {
        if let Some(m) = &j.mimic {
            let what = format!("joint '{}' mimic", j.name);
            let leader = *joint_index.get(&m.joint).ok_or_else(|| InputError::new(format!("unknown leader joint '{}'", m.joint)).at(what.clone()))?;
            let multiplier = m.multiplier.unwrap_or(1.0);
            let offset = m.offset.unwrap_or(0.0);
            if !multiplier.is_finite() || !offset.is_finite() {
                return Err(InputError::new("multiplier and offset must be finite").at(what));
            }
            if joints[i].kind != JointKind::Fixed {
                joints[i].mimic = Some(Mimic { leader, multiplier, offset });
            }
        }
    }
    let roots: Vec<usize> = (0..links.len()).filter(|&l| !has_parent[l]).collect();
    if roots.len() != 1 {
        let names: Vec<&str> = roots.iter().map(|&l| links[l].name.as_str()).collect();
        return Err(InputError::new(format!("the links must form one tree, found {} roots: {names:?}", roots.len())));
    }
    let root_link = roots[0];
    let (mut joints, joint_index) = sort_parents_first(joints, root_link, links.len())?;
    let variables = assign_variables(&mut joints)?;
    Ok(Robot::new(urdf.name.clone(), links, joints, root_link, variables, (link_index, joint_index)))
}

/// Breadth-first from the root, so parents are placed before children.
fn sort_parents_first(joints: Vec<Joint>, root: usize, n_links: usize) -> InputResult<(Vec<Joint>, HashMap<String, usize>)> {
    let mut children: Vec<Vec<usize>> = vec![Vec::new(); n_links];
    for (i, j) in joints.iter().enumerate() {
        children[j.parent_link].push(i);
    }
    let mut order = Vec::with_capacity(joints.len());
    let mut queue = VecDeque::from([root]);
    while let Some(link) = queue.pop_front() {
        for &j in &children[link] {
            order.push(j);
            queue.push_back(joints[j].child_link);
        }
    }
    if order.len() != joints.len() {
        return Err(InputError::new("the joints contain a cycle"));
    }
    let mut new_index = vec![0; joints.len()];
    for (new, &old) in order.iter().enumerate() {
        new_index[old] = new;
    }
    let mut slots: Vec<Option<Joint>> = joints.into_iter().map(Some).collect();
    let mut sorted: Vec<Joint> = order.iter().map(|&old| slots[old].take().expect("each joint once")).collect();
    for j in &mut sorted {
        if let Some(m) = &mut j.mimic {
            m.leader = new_index[m.leader];
        }
    }
    let index = sorted.iter().enumerate().map(|(i, j)| (j.name.clone(), i)).collect();
    Ok((sorted, index))
}

/// Gives every moving joint its variable: its own, or its (ultimate) leader's.
fn assign_variables(joints: &mut [Joint]) -> InputResult<Vec<usize>> {
    let mut variables = Vec::new();
    for (i, joint) in joints.iter_mut().enumerate() {
        if joint.kind != JointKind::Fixed && joint.mimic.is_none() {
            joint.variable = Some(variables.len());
            variables.push(i);
        }
    }
    for i in 0..joints.len() {
        if let Some(m) = joints[i].mimic.clone() {
            let leader = &joints[m.leader];
            if leader.mimic.is_some() || leader.kind == JointKind::Fixed {
                return Err(
                    InputError::new(format!("mimics '{}', which is not an independent moving joint", leader.name)).at(format!("joint '{}'", joints[i].name))
                );
            }
            joints[i].variable = leader.variable;
        }
    }
    Ok(variables)
}

/// The display URI of a mesh geometry (its geometry has loaded, so it resolves).
fn mesh_source(g: &urdf_rs::Geometry, urdf_path: &Path, resolver: &ResourceResolver) -> Option<MeshSource> {
    let urdf_rs::Geometry::Mesh { filename, scale } = g else { return None };
    let uri = if filename.starts_with("package://") {
        filename.clone()
    } else {
        let path = resolver.resolve(filename, urdf_path).ok()?;
        format!("file://{}", std::path::absolute(&path).unwrap_or(path).display())
    };
    Some(MeshSource { uri, scale: Vector3::from(scale.as_ref().map(|s| s.0).unwrap_or([1.0; 3])) })
}

fn geometry(
    g: &urdf_rs::Geometry,
    what: &str,
    urdf_path: &Path,
    resolver: &ResourceResolver,
    cache: &mut HashMap<(PathBuf, [u64; 3]), Arc<TriMesh>>,
) -> InputResult<Shape> {
    Ok(match g {
        urdf_rs::Geometry::Box { size } => {
            let s = size.0;
            for (i, v) in s.iter().enumerate() {
                positive(*v, &format!("{what} box size[{i}]"))?;
            }
            Shape::Cuboid(Cuboid { half_extents: Vector3::from(s) * 0.5 })
        }
        urdf_rs::Geometry::Sphere { radius } => Shape::Ball(Ball { radius: positive(*radius, &format!("{what} sphere radius"))? }),
        urdf_rs::Geometry::Cylinder { radius, length } => Shape::Cylinder(Cylinder {
            radius: positive(*radius, &format!("{what} cylinder radius"))?,
            half_height: positive(*length, &format!("{what} cylinder length"))? * 0.5,
        }),
        urdf_rs::Geometry::Capsule { radius, length } => Shape::Capsule(Capsule {
            radius: positive(*radius, &format!("{what} capsule radius"))?,
            half_height: positive(*length, &format!("{what} capsule length"))? * 0.5,
        }),
        urdf_rs::Geometry::Mesh { filename, scale } => {
            let scale = Vector3::from(scale.as_ref().map(|s| s.0).unwrap_or([1.0; 3]));
            if scale.iter().any(|v| !v.is_finite() || *v == 0.0) {
                return Err(InputError::new("mesh scale must be finite and non-zero").at(what.to_string()));
            }
            let mesh_path = resolver.resolve(filename, urdf_path).map_err(|e| InputError::new(e.to_string()).at(what.to_string()))?;
            let key = (mesh_path.clone(), scale.map(|v| v.to_bits()).into());
            let mesh = match cache.get(&key) {
                Some(mesh) => mesh.clone(),
                None => {
                    let mesh = Arc::new(load_mesh(resolver, &mesh_path, scale).map_err(|e| e.at(what.to_string()))?);
                    cache.insert(key, mesh.clone());
                    mesh
                }
            };
            Shape::TriMesh(mesh)
        }
    })
}

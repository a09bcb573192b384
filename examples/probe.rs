//! Test probe for the cross-checks against independent implementations
//! (`interop/python`): reads one JSON request on stdin, writes one JSON answer.
//!
//! `probe fk`: `{"urdf", "configurations": [{joint: value}]}` -> world pose of every link.
//! `probe collide`: `{"urdf", "srdf", "scene", "configurations"}` -> all touching pairs.
//! `probe tri_tri`: `{"pairs": [[triangle, triangle]]}` -> whether each pair intersects.
//! `probe primitives`: `{"pairs": [[object, object]]}` (scene-file objects) -> whether
//! each pair of placed primitives intersects.
//! `probe distances`: `{"pairs": [[object, object]]}` (scene-file objects, meshes too) ->
//! the distance and closest points (world frame) of each pair.
//! `probe convex`: `{"pairs": [[{"points": [[x, y, z]], "pose"}, {...}]]}` (convex hulls
//! of point clouds, pose as in scene files) -> Lin–Canny's `distance`, closest points
//! `point_a`, `point_b` (world frame), `penetrating` and `fallback`; the MTD by EPA on
//! the vertex clouds (`depth`, `normal`, `depth_point_a`, `depth_point_b`; null when
//! apart); and the exact MTD from the Minkowski difference's facets (`exact_depth`,
//! `exact_normal`, `exact_point_a`, `exact_point_b`; null when apart or above
//! `minkowski_facets::MAX_PAIRS` vertex pairs, where it would be EPA's).
//! `probe penetration`: `{"pairs": [[object, object]]}` (scene-file objects) -> the MTD
//! of each pair (`depth` null when apart), `normal` and the deepest points (world frame);
//! convex pairs by `penetration_depth`, pairs with a mesh by `shape_penetration`.
//! `probe cdr`: `{"messages": [{"type": "pkg/msg/Name", "json": {..}} | {"type", "cdr": hex}]}`
//! -> for each, the CDR payload (`cdr`, hex, with the encapsulation header) the node's
//! transport writes for the message given as JSON, or the message (`json`) it reads from
//! the given payload; `error` when it cannot.
//! `probe octomap_leaves`: `{"scene"}` (a scene file) -> for each octomap object, as read:
//! `id`, `resolution`, `pose` (`translation`, `rotation` rows) and its occupied leaves,
//! `voxels` (`[kx, ky, kz, level]`: key corner and levels above the finest) and `cubes`
//! (`[[min x, y, z], [max x, y, z]]`, map frame).
use ccd_guard::collision::{Body, CollisionWorld, StateChecker};
use ccd_guard::math::{Isometry3, Point3, Real, Translation3, UnitQuaternion};
use ccd_guard::node::transport::dds::messages::wire_codec_of;
use ccd_guard::query::closest_features::{ConvexPolyhedron, closest_features};
use ccd_guard::query::distance::shape_distance;
use ccd_guard::query::intersection::intersection_point;
use ccd_guard::query::penetration::{Penetration, VertexCloud, minkowski_facets, penetration_depth, polytope_penetration_exact, shape_penetration};
use ccd_guard::query::triangle_triangle::triangles_intersect;
use ccd_guard::robot::resources::ResourceResolver;
use ccd_guard::robot::{Robot, srdf, urdf};
use ccd_guard::scene::{Obstacle, Scene, load_scene, parse_scene};
use ccd_guard::shape::Shape;
use serde_json::{Value, json};
use std::collections::HashMap;
use std::io::Read;
use std::path::PathBuf;

fn fail(message: String) -> ! {
    eprintln!("probe: {message}");
    std::process::exit(2)
}

fn path_field(request: &Value, name: &str) -> Option<PathBuf> {
    request.get(name).and_then(Value::as_str).map(PathBuf::from)
}

fn load_robot(request: &Value, resolver: &ResourceResolver) -> Robot {
    let path = path_field(request, "urdf").unwrap_or_else(|| fail("request lacks 'urdf'".into()));
    urdf::load_urdf(&path, resolver).unwrap_or_else(|e| fail(e.to_string()))
}

fn configurations(request: &Value, robot: &Robot) -> Vec<Vec<Real>> {
    let list = request.get("configurations").and_then(Value::as_array).cloned().unwrap_or_default();
    list.iter()
        .map(|c| {
            let values: HashMap<String, Real> = serde_json::from_value(c.clone()).unwrap_or_else(|e| fail(e.to_string()));
            let mut q = vec![0.0; robot.variables.len()];
            for (name, value) in values {
                let v = robot.variable_of_joint(&name).unwrap_or_else(|| fail(format!("unknown joint {name}")));
                q[v] = value;
            }
            q
        })
        .collect()
}

fn fk(request: &Value, resolver: &ResourceResolver) -> Value {
    let robot = load_robot(request, resolver);
    let poses: Vec<Value> = configurations(request, &robot)
        .iter()
        .map(|q| {
            let poses = robot.link_poses(q);
            let map: serde_json::Map<String, Value> = robot
                .links
                .iter()
                .zip(&poses)
                .map(|(link, pose)| {
                    let r = pose.rotation.to_rotation_matrix();
                    let rows: Vec<Vec<Real>> = (0..3).map(|i| (0..3).map(|j| r[(i, j)]).collect()).collect();
                    (link.name.clone(), json!({"translation": pose.translation.vector.as_slice(), "rotation": rows}))
                })
                .collect();
            Value::Object(map)
        })
        .collect();
    json!({ "poses": poses })
}

fn collide(request: &Value, resolver: &ResourceResolver) -> Value {
    let robot = load_robot(request, resolver);
    let disabled = path_field(request, "srdf").map(|p| {
        let text = std::fs::read_to_string(&p).unwrap_or_else(|e| fail(format!("{}: {e}", p.display())));
        srdf::parse_disabled_pairs(&text, &p).unwrap_or_else(|e| fail(e.to_string()))
    });
    let scene = match path_field(request, "scene") {
        Some(p) => load_scene(&p, resolver).unwrap_or_else(|e| fail(e.to_string())),
        None => Scene::default(),
    };
    let qs = configurations(request, &robot);
    let world = CollisionWorld::new(robot, scene, disabled.as_deref());
    let mut checker = StateChecker::new(&world);
    let results: Vec<Value> = qs
        .iter()
        .map(|q| {
            let mut contacts: Vec<(&str, &str, Vec<Real>)> = checker
                .contacts(q, false)
                .iter()
                .map(|c| (world.body_name(Body::Link(c.link)), world.body_name(c.other), c.point.coords.as_slice().to_vec()))
                .collect();
            contacts.sort_by(|a, b| (a.0, a.1).cmp(&(b.0, b.1)));
            let pairs: Vec<Value> = contacts.iter().map(|c| json!([c.0, c.1])).collect();
            let points: Vec<Value> = contacts.iter().map(|c| json!(c.2)).collect();
            json!({ "pairs": pairs, "points": points })
        })
        .collect();
    json!({ "results": results })
}

fn triangle(v: &Value) -> [Point3; 3] {
    let corners: [[Real; 3]; 3] = serde_json::from_value(v.clone()).unwrap_or_else(|e| fail(e.to_string()));
    corners.map(Point3::from)
}

fn tri_tri(request: &Value) -> Value {
    let pairs = request.get("pairs").and_then(Value::as_array).cloned().unwrap_or_default();
    let results: Vec<bool> = pairs.iter().map(|p| triangles_intersect(&triangle(&p[0]), &triangle(&p[1])).is_some()).collect();
    json!({ "results": results })
}

fn primitives(request: &Value, resolver: &ResourceResolver) -> Value {
    let pairs = request.get("pairs").and_then(Value::as_array).cloned().unwrap_or_default();
    let results: Vec<bool> = pairs
        .iter()
        .map(|p| {
            // Each pair is a two-object scene file; the parser checks the objects.
            let text = json!({ "objects": [p[0], p[1]] }).to_string();
            let scene = parse_scene(&text, std::path::Path::new("pair.yaml"), resolver).unwrap_or_else(|e| fail(e.to_string()));
            let (a, b) = (&scene.objects[0], &scene.objects[1]);
            intersection_point(&a.shape, &a.pose, &b.shape, &b.pose).is_some()
        })
        .collect();
    json!({ "results": results })
}

/// One scene-file object, placed. A mesh is read once per distinct file and scale: its
/// shape comes from `meshes`, and its pose from the object with the mesh left out.
fn scene_object(object: &Value, meshes: &mut HashMap<String, Shape>, resolver: &ResourceResolver) -> Obstacle {
    let parse = |object: Value| {
        let text = json!({ "objects": [object] }).to_string();
        let mut scene = parse_scene(&text, std::path::Path::new("pair.yaml"), resolver).unwrap_or_else(|e| fail(e.to_string()));
        scene.objects.pop().unwrap_or_else(|| fail("no object".into()))
    };
    if object.get("type").and_then(Value::as_str) != Some("mesh") {
        return parse(object.clone());
    }
    let fields = object.as_object().unwrap_or_else(|| fail(format!("object {object} is not a map")));
    let key = json!([fields.get("mesh"), fields.get("scale")]).to_string();
    if !meshes.contains_key(&key) {
        let mut unplaced = fields.clone();
        unplaced.remove("pose");
        meshes.insert(key.clone(), parse(Value::Object(unplaced)).shape);
    }
    // The same object as a unit sphere: the parser checks its id and pose.
    let mut placeholder = fields.clone();
    placeholder.remove("mesh");
    placeholder.remove("scale");
    placeholder.insert("type".into(), json!("sphere"));
    placeholder.insert("dimensions".into(), json!([1.0]));
    let placed = parse(Value::Object(placeholder));
    Obstacle { shape: meshes[&key].clone(), ..placed }
}

/// Each pair of scene-file objects in `request["pairs"]`, answered by `answer`.
fn object_pairs(request: &Value, resolver: &ResourceResolver, mut answer: impl FnMut(&Obstacle, &Obstacle, &Value) -> Value) -> Value {
    let pairs = request.get("pairs").and_then(Value::as_array).cloned().unwrap_or_default();
    let mut meshes = HashMap::new();
    let results: Vec<Value> = pairs
        .iter()
        .map(|p| {
            let objects = p.as_array().filter(|p| p.len() == 2).unwrap_or_else(|| fail(format!("pair {p} is not two objects")));
            let a = scene_object(&objects[0], &mut meshes, resolver);
            let b = scene_object(&objects[1], &mut meshes, resolver);
            answer(&a, &b, p)
        })
        .collect();
    json!({ "results": results })
}

fn distances(request: &Value, resolver: &ResourceResolver) -> Value {
    object_pairs(request, resolver, |a, b, p| {
        let cp = shape_distance(&a.shape, &a.pose, &b.shape, &b.pose, Real::INFINITY).unwrap_or_else(|| fail(format!("no distance for pair {p}")));
        json!({ "distance": cp.distance, "point_a": cp.point_a.coords.as_slice(), "point_b": cp.point_b.coords.as_slice() })
    })
}

/// `{"position": [x, y, z], "orientation": [x, y, z, w]}` (both optional; the
/// quaternion is normalised).
fn pose(v: Option<&Value>) -> Isometry3 {
    let Some(v) = v else { return Isometry3::identity() };
    let field = |name: &str, default: Vec<Real>| -> Vec<Real> {
        v.get(name).map(|x| serde_json::from_value(x.clone()).unwrap_or_else(|e| fail(format!("pose.{name}: {e}")))).unwrap_or(default)
    };
    let (p, q) = (field("position", vec![0.0; 3]), field("orientation", vec![0.0, 0.0, 0.0, 1.0]));
    if p.len() != 3 || q.len() != 4 {
        fail(format!("bad pose {v}"));
    }
    let rotation = UnitQuaternion::new_normalize(nalgebra::Quaternion::new(q[3], q[0], q[1], q[2]));
    Isometry3::from_parts(Translation3::new(p[0], p[1], p[2]), rotation)
}

fn penetration_json(p: Option<Penetration>) -> Value {
    match p {
        Some(p) => json!({
            "depth": p.depth,
            "normal": p.normal.as_slice(),
            "point_a": p.point_a.coords.as_slice(),
            "point_b": p.point_b.coords.as_slice(),
        }),
        None => json!({ "depth": null, "normal": null, "point_a": null, "point_b": null }),
    }
}

fn convex(request: &Value) -> Value {
    let pairs = request.get("pairs").and_then(Value::as_array).cloned().unwrap_or_default();
    let results: Vec<Value> = pairs
        .iter()
        .map(|p| {
            let objects = p.as_array().filter(|p| p.len() == 2).unwrap_or_else(|| fail(format!("pair {p} is not two objects")));
            let [(va, pa), (vb, pb)] = [0, 1].map(|k| {
                let points: Vec<[Real; 3]> = objects[k]
                    .get("points")
                    .map(|v| serde_json::from_value(v.clone()).unwrap_or_else(|e| fail(format!("points: {e}"))))
                    .unwrap_or_else(|| fail(format!("object {} lacks 'points'", objects[k])));
                (points.into_iter().map(Point3::from).collect::<Vec<_>>(), pose(objects[k].get("pose")))
            });
            let ha = ConvexPolyhedron::from_points(&va).unwrap_or_else(|e| fail(format!("hull of a: {e}")));
            let hb = ConvexPolyhedron::from_points(&vb).unwrap_or_else(|e| fail(format!("hull of b: {e}")));
            let cf = closest_features(&ha, &pa, &hb, &pb, None);
            let epa = penetration_json(penetration_depth(&VertexCloud(&va), &pa, &VertexCloud(&vb), &pb));
            let exact = if va.len() * vb.len() <= minkowski_facets::MAX_PAIRS {
                penetration_json(polytope_penetration_exact(&va, &pa, &vb, &pb))
            } else {
                penetration_json(None)
            };
            json!({
                "distance": cf.distance,
                "point_a": cf.point_a.coords.as_slice(),
                "point_b": cf.point_b.coords.as_slice(),
                "penetrating": cf.penetrating,
                "fallback": cf.fallback,
                "depth": epa["depth"],
                "normal": epa["normal"],
                "depth_point_a": epa["point_a"],
                "depth_point_b": epa["point_b"],
                "exact_depth": exact["depth"],
                "exact_normal": exact["normal"],
                "exact_point_a": exact["point_a"],
                "exact_point_b": exact["point_b"],
            })
        })
        .collect();
    json!({ "results": results })
}

fn penetration(request: &Value, resolver: &ResourceResolver) -> Value {
    object_pairs(request, resolver, |a, b, _| penetration_json(shape_penetration(&a.shape, &a.pose, &b.shape, &b.pose)))
}

fn cdr(request: &Value) -> Value {
    let messages = request["messages"].as_array().unwrap_or_else(|| fail("cdr needs 'messages'".into()));
    let results: Vec<Value> = messages
        .iter()
        .map(|m| {
            let type_name = m["type"].as_str().unwrap_or_default();
            let Some(codec) = wire_codec_of(type_name) else {
                return json!({ "error": format!("unknown message type '{type_name}'") });
            };
            let answer = match m.get("cdr").and_then(Value::as_str) {
                Some(hex) => from_hex(hex)
                    .and_then(|bytes| (codec.cdr_to_json)(&bytes).map_err(|e| e.to_string()))
                    .map(|text| json!({ "json": serde_json::from_str::<Value>(&text).expect("json") })),
                None => (codec.json_to_cdr)(&m["json"].to_string()).map(|bytes| json!({ "cdr": to_hex(&bytes) })).map_err(|e| e.to_string()),
            };
            answer.unwrap_or_else(|e| json!({ "error": e }))
        })
        .collect();
    json!({ "results": results })
}

fn octomap_leaves(request: &Value, resolver: &ResourceResolver) -> Value {
    let path = path_field(request, "scene").unwrap_or_else(|| fail("request lacks 'scene'".into()));
    let scene = load_scene(&path, resolver).unwrap_or_else(|e| fail(e.to_string()));
    let maps: Vec<Value> = scene
        .objects
        .iter()
        .filter_map(|o| match &o.shape {
            Shape::VoxelMap(map) => Some((o, map)),
            _ => None,
        })
        .map(|(o, map)| {
            let r = o.pose.rotation.to_rotation_matrix();
            let rows: Vec<Vec<Real>> = (0..3).map(|i| (0..3).map(|j| r[(i, j)]).collect()).collect();
            let voxels: Vec<Value> = map.voxels().iter().map(|v| json!([v.min[0], v.min[1], v.min[2], v.level])).collect();
            let cubes: Vec<Value> = (0..map.voxels().len() as u32)
                .map(|i| {
                    let c = map.voxel_cube(i);
                    json!([c.mins.coords.as_slice(), c.maxs.coords.as_slice()])
                })
                .collect();
            json!({
                "id": o.id,
                "resolution": map.resolution(),
                "pose": {"translation": o.pose.translation.vector.as_slice(), "rotation": rows},
                "voxels": voxels,
                "cubes": cubes,
            })
        })
        .collect();
    json!({ "maps": maps })
}

fn to_hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn from_hex(hex: &str) -> Result<Vec<u8>, String> {
    if !hex.len().is_multiple_of(2) {
        return Err("odd number of hex digits".into());
    }
    (0..hex.len()).step_by(2).map(|i| u8::from_str_radix(&hex[i..i + 2], 16).map_err(|e| e.to_string())).collect()
}

fn main() {
    let command = std::env::args()
        .nth(1)
        .unwrap_or_else(|| fail("usage: probe fk|collide|tri_tri|primitives|distances|convex|penetration|cdr|octomap_leaves < request.json".into()));
    let mut input = String::new();
    std::io::stdin().read_to_string(&mut input).unwrap_or_else(|e| fail(e.to_string()));
    let request: Value = serde_json::from_str(&input).unwrap_or_else(|e| fail(format!("bad request: {e}")));
    let resolver = ResourceResolver::from_env(Vec::new());
    let answer = match command.as_str() {
        "fk" => fk(&request, &resolver),
        "collide" => collide(&request, &resolver),
        "tri_tri" => tri_tri(&request),
        "primitives" => primitives(&request, &resolver),
        "distances" => distances(&request, &resolver),
        "convex" => convex(&request),
        "penetration" => penetration(&request, &resolver),
        "cdr" => cdr(&request),
        "octomap_leaves" => octomap_leaves(&request, &resolver),
        other => fail(format!("unknown command {other}")),
    };
    println!("{answer}");
}

//! Exact distances of robot link meshes, side by side in the same run with coal (a
//! `BVHModel<OBBRSS>` of the same triangles, `benches/coal_mesh_distance.py`), on the
//! same poses: the query the clearance search spends most of its exact time in
//! (`query::distance::shape_distance`'s branch and bound over OBB trees).
//!
//! Per case, 40 seeded relative poses at which the two shapes are 0.5-5 cm apart (the
//! range a clearance search measures near its minimum): meshes of the UR5 and the Panda
//! against each other, and a UR5 and a Panda link against a box, a ball and a cylinder.
//! Prints per case the median over the poses of each side's best of 20 runs (µs), their
//! ratio, and the largest difference between the two distances.
//!
//! `cargo bench --bench mesh_distance` (needs `.venv`: `bash scripts/setup_python.sh`).
mod panda_scene;

use ccd_guard::math::{Isometry3, Real, Vector3};
use ccd_guard::query::distance::shape_distance;
use ccd_guard::robot::load_mesh;
use ccd_guard::robot::resources::ResourceResolver;
use ccd_guard::shape::{Ball, Cuboid, Cylinder, Shape};
use panda_scene::Rng;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

const POSES: usize = 40;
const REPEATS: usize = 20;

/// The other side of a case: a mesh file, or a primitive as coal builds it.
enum Other {
    Mesh(PathBuf),
    Box([Real; 3]),
    Sphere(Real),
    Cylinder(Real, Real),
}

impl Other {
    fn shape(&self) -> Shape {
        match self {
            Other::Mesh(path) => Shape::TriMesh(Arc::new(mesh(path))),
            Other::Box(s) => Shape::Cuboid(Cuboid { half_extents: Vector3::new(s[0], s[1], s[2]) * 0.5 }),
            Other::Sphere(r) => Shape::Ball(Ball { radius: *r }),
            Other::Cylinder(r, length) => Shape::Cylinder(Cylinder { radius: *r, half_height: 0.5 * length }),
        }
    }

    fn json(&self) -> serde_json::Value {
        match self {
            Other::Mesh(path) => serde_json::json!({"mesh": path}),
            Other::Box(s) => serde_json::json!({"box": s}),
            Other::Sphere(r) => serde_json::json!({"sphere": r}),
            Other::Cylinder(r, length) => serde_json::json!({"cylinder": [r, length]}),
        }
    }
}

fn mesh(path: &Path) -> ccd_guard::shape::TriMesh {
    load_mesh(&ResourceResolver::default(), path, Vector3::repeat(1.0)).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// `POSES` poses of the other shape in the mesh's frame with the two 0.5-5 cm apart.
fn poses(a: &Shape, b: &Shape, seed: u64) -> Vec<(Isometry3, Real)> {
    let mut rng = Rng::new(seed);
    let mut found = Vec::new();
    while found.len() < POSES {
        let turn = Vector3::new(rng.uniform(-3.2, 3.2), rng.uniform(-3.2, 3.2), rng.uniform(-3.2, 3.2));
        let shift = Vector3::new(rng.uniform(-0.4, 0.4), rng.uniform(-0.4, 0.4), rng.uniform(-0.4, 0.4));
        let pose = Isometry3::new(shift, turn);
        if let Some(cp) = shape_distance(a, &Isometry3::identity(), b, &pose, 0.05)
            && cp.distance > 0.005
        {
            found.push((pose, cp.distance));
        }
    }
    found
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    let robots = panda_scene::cmeel_prefix().join("share/example-robot-data/robots");
    let ur5 = |name: &str| robots.join(format!("ur_description/meshes/ur5/collision/{name}.stl"));
    let panda = |name: &str| robots.join(format!("panda_description/meshes/collision/{name}.stl"));
    let cases: Vec<(String, PathBuf, Other)> = vec![
        ("UR5 upper arm / wrist 2".into(), ur5("upperarm"), Other::Mesh(ur5("wrist2"))),
        ("UR5 forearm / wrist 3".into(), ur5("forearm"), Other::Mesh(ur5("wrist3"))),
        ("Panda link 3 / link 6".into(), panda("link3"), Other::Mesh(panda("link6"))),
        ("Panda link 2 / hand".into(), panda("link2"), Other::Mesh(panda("hand"))),
        ("UR5 upper arm / box".into(), ur5("upperarm"), Other::Box([0.3, 0.2, 0.1])),
        ("UR5 upper arm / ball".into(), ur5("upperarm"), Other::Sphere(0.08)),
        ("UR5 upper arm / cylinder".into(), ur5("upperarm"), Other::Cylinder(0.05, 0.3)),
        ("Panda link 4 / box".into(), panda("link4"), Other::Box([0.2, 0.15, 0.1])),
        ("Panda link 4 / ball".into(), panda("link4"), Other::Sphere(0.05)),
        ("Panda link 4 / cylinder".into(), panda("link4"), Other::Cylinder(0.04, 0.25)),
    ];
    let mut rows = Vec::new();
    let mut request = Vec::new();
    for (k, (name, a_path, other)) in cases.iter().enumerate() {
        let (a, b) = (Shape::TriMesh(Arc::new(mesh(a_path))), other.shape());
        let at = poses(&a, &b, 31 + k as u64);
        let ours: Vec<f64> = at
            .iter()
            .map(|(pose, _)| {
                (0..REPEATS)
                    .map(|_| {
                        let started = Instant::now();
                        std::hint::black_box(shape_distance(&a, &Isometry3::identity(), &b, pose, Real::INFINITY));
                        started.elapsed().as_secs_f64() * 1e6
                    })
                    .fold(f64::INFINITY, f64::min)
            })
            .collect();
        let matrices: Vec<serde_json::Value> = at
            .iter()
            .map(|(pose, _)| {
                let r = pose.rotation.to_rotation_matrix().into_inner();
                serde_json::json!({"rotation": (0..3).map(|i| (0..3).map(|j| r[(i, j)]).collect::<Vec<_>>()).collect::<Vec<_>>(), "translation": pose.translation.vector.as_slice()})
            })
            .collect();
        request.push(serde_json::json!({"a": a_path, "b": other.json(), "poses": matrices}));
        rows.push((name.clone(), median(ours), at.iter().map(|(_, d)| *d).collect::<Vec<_>>()));
    }
    let answer = panda_scene::run_python_peer("coal_mesh_distance.py", &serde_json::json!({"cases": request, "repeats": REPEATS}));
    println!("{POSES} poses per case, 0.5-5 cm apart; medians of the best of {REPEATS} runs per pose (µs)");
    println!("{:<28} {:>9} {:>9} {:>10} {:>16}", "case", "ours", "coal", "ours/coal", "largest diff (m)");
    for (k, (name, ours, distances)) in rows.iter().enumerate() {
        let theirs = answer.as_ref().map(|a| &a[k]);
        let coal = theirs.map_or(f64::NAN, |t| median(t["micros"].as_array().unwrap().iter().map(|x| x.as_f64().unwrap()).collect()));
        let diff = theirs
            .map_or(f64::NAN, |t| t["distances"].as_array().unwrap().iter().zip(distances).map(|(c, d)| (c.as_f64().unwrap() - d).abs()).fold(0.0, f64::max));
        println!("{name:<28} {ours:>9.1} {coal:>9.1} {:>10.2} {diff:>16.1e}", ours / coal);
    }
}

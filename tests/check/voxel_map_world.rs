//! A voxel map as one obstacle against the same cubes written as one box each: every
//! method must give the same verdicts, the same first time of contact per link, and the
//! same depths and clearance, and a map may be certified free only where dense sampling
//! of the boxes finds no contact.
//!
//! Random cases on the demo robot (meshes and primitives): maps of 5-120 cubes at 2 or
//! 4 cm, some pruned (2x and 4x the resolution), placed in its reach under a random pose,
//! and random motions of 2-3 waypoints near the demo's free trajectory.
//! `VOXEL_MAP_CASES=N` runs more cases, `VOXEL_MAP_BASE=<u64>` draws others.
use ccd_guard::check::Method;
use ccd_guard::check::{CheckInput, CheckOptions, Report, Verdict, check_trajectory};
use ccd_guard::collision::{CollisionWorld, StateChecker};
use ccd_guard::math::{Isometry3, Real, Translation3, UnitQuaternion, Vector3};
use ccd_guard::motion::parse_trajectory;
use ccd_guard::robot::resources::ResourceResolver;
use ccd_guard::robot::srdf::DisabledPair;
use ccd_guard::robot::{Robot, srdf, urdf};
use ccd_guard::scene::{Obstacle, Scene};
use ccd_guard::shape::{KEY_CENTRE, Shape, Voxel, VoxelMap};
use std::path::Path;
use std::sync::Arc;

use crate::common::demo::demo;
use crate::common::rng::{Rng, splitmix};

fn demo_robot() -> (Robot, Vec<DisabledPair>) {
    let resolver = ResourceResolver::from_env(Vec::new());
    let robot = urdf::load_urdf(&demo("robot.urdf"), &resolver).unwrap();
    let text = std::fs::read_to_string(demo("robot.srdf")).unwrap();
    (robot, srdf::parse_disabled_pairs(&text, &demo("robot.srdf")).unwrap())
}

/// A random map: clusters of cubes in the robot's reach (key grid of the resolution).
fn random_map(rng: &mut Rng) -> VoxelMap {
    let resolution = if rng.f() < 0.5 { 0.02 } else { 0.04 };
    let key = |x: Real| ((x / resolution).floor() as i32 + KEY_CENTRE) as u16;
    let mut voxels = Vec::new();
    for _ in 0..rng.int(1, 4) {
        let centre = [rng.range(0.1, 0.7), rng.range(-0.6, 0.6), rng.range(0.05, 0.8)];
        // A board (one cube thick) or a blob.
        let board = rng.f() < 0.5;
        let extent = [rng.int(1, 6), rng.int(1, 6), if board { 1 } else { rng.int(1, 4) }];
        for i in 0..extent[0] {
            for j in 0..extent[1] {
                for k in 0..extent[2] {
                    if !board && rng.f() < 0.3 {
                        continue;
                    }
                    let level = if rng.f() < 0.15 { rng.int(1, 2) as u8 } else { 0 };
                    let step = resolution * (1 << level) as Real;
                    let at = |c: usize, n: usize| key(centre[c] + step * n as Real) & !((1u16 << level) - 1);
                    voxels.push(Voxel { min: [at(0, i), at(1, j), at(2, k)], level });
                }
            }
        }
    }
    VoxelMap::new(resolution, voxels).unwrap()
}

fn random_pose(rng: &mut Rng) -> Isometry3 {
    if rng.f() < 0.4 {
        return Isometry3::identity();
    }
    let axis = nalgebra::Unit::new_normalize(Vector3::new(rng.range(-1.0, 1.0), rng.range(-1.0, 1.0), rng.range(-1.0, 1.0)));
    Isometry3::from_parts(
        Translation3::new(rng.range(-0.1, 0.1), rng.range(-0.1, 0.1), rng.range(-0.1, 0.1)),
        UnitQuaternion::from_axis_angle(&axis, rng.range(-0.4, 0.4)),
    )
}

/// The map as one obstacle, and its cubes as one box each.
fn worlds(robot: &Robot, disabled: &[DisabledPair], map: VoxelMap, pose: Isometry3) -> (CollisionWorld, CollisionWorld) {
    let boxes = (0..map.voxels().len() as u32)
        .map(|v| {
            let (cube, at) = map.voxel_cuboid(v);
            Obstacle { id: format!("voxel_{v}"), shape: Shape::Cuboid(cube), pose: pose * at }
        })
        .collect();
    let map_scene = Scene { frame_id: None, objects: vec![Obstacle { id: "camera_map".into(), shape: Shape::VoxelMap(Arc::new(map)), pose }] };
    let box_scene = Scene { frame_id: None, objects: boxes };
    (CollisionWorld::new(robot.clone(), map_scene, Some(disabled)), CollisionWorld::new(robot.clone(), box_scene, Some(disabled)))
}

fn random_trajectory(rng: &mut Rng) -> String {
    // The points of the demo's free trajectory (assets/demo/traj_free.yaml).
    const HALF_PI: f64 = std::f64::consts::FRAC_PI_2;
    let free = [
        [0.0, -0.5, 1.9, 0.17, -HALF_PI, 0.0],
        [0.5912, 0.2082, 1.6807, -0.3181, -HALF_PI, -0.9796],
        [-1.0102, 0.1296, 1.5134, -0.0722, -HALF_PI, 0.5606],
        [-0.1642, 0.7202, 1.117, -1.8372, -1.4066, HALF_PI],
    ];
    let n = rng.int(2, 3);
    let mut text = String::from("joint_names: [joint1, joint2, joint3, joint4, joint5, joint6]\npoints:\n");
    for i in 0..n {
        let base = free[rng.int(0, 3)];
        let q: Vec<String> = base.iter().map(|v| format!("{:.6}", v + rng.range(-0.4, 0.4))).collect();
        text += &format!("  - {{positions: [{}], time_from_start: {}}}\n", q.join(", "), i as f64);
    }
    text
}

/// Per link, the first time of contact of its events.
fn first_contacts(report: &Report) -> Vec<(String, Real)> {
    let mut firsts: Vec<(String, Real)> = Vec::new();
    for c in &report.contacts {
        match firsts.iter_mut().find(|(l, _)| *l == c.link) {
            Some(f) => f.1 = f.1.min(c.time_of_contact),
            None => firsts.push((c.link.clone(), c.time_of_contact)),
        }
    }
    firsts.sort_by(|a, b| a.0.cmp(&b.0));
    firsts
}

/// Whether dense sampling (1e-3 rad of joint travel) finds the world touching.
fn sampling_touches(input: &CheckInput) -> bool {
    let motion = &input.motion;
    let mut checker = StateChecker::new(&input.world);
    let (t0, t1) = (motion.start_time(), motion.end_time());
    let travel: Real = motion.waypoints.windows(2).map(|w| w[0].iter().zip(&w[1]).map(|(a, b)| (a - b).abs()).fold(0.0, Real::max)).sum();
    let n = (travel / 1e-3).ceil().max(10.0) as usize;
    (0..=n).any(|i| !checker.contacts(&motion.positions_at(t0 + (t1 - t0) * i as Real / n as Real), true).is_empty())
}

#[test]
fn a_map_checks_as_its_cubes_written_as_boxes() {
    let cases: usize = std::env::var("VOXEL_MAP_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(if cfg!(debug_assertions) { 3 } else { 40 });
    let base: u64 = std::env::var("VOXEL_MAP_BASE").ok().and_then(|v| v.parse().ok()).unwrap_or(0x5eed_0013);
    let (robot, disabled) = demo_robot();
    let (mut colliding, mut certified, mut uncertain_map_only) = (0, 0, 0);
    for case in 0..cases {
        let seed = splitmix(base + splitmix(case as u64));
        let mut rng = Rng::new(seed);
        let map = random_map(&mut rng);
        let pose = random_pose(&mut rng);
        let (map_world, box_world) = worlds(&robot, &disabled, map, pose);
        let trajectory = parse_trajectory(&random_trajectory(&mut rng), Path::new("random.yaml")).unwrap();
        let map_input = CheckInput::from_parts(map_world, &trajectory, None).unwrap();
        let box_input = CheckInput::from_parts(box_world, &trajectory, None).unwrap();
        let options = CheckOptions { method: Method::Certified, ..CheckOptions::default() };
        let on_map = check_trajectory(&map_input, &options).report;
        let on_boxes = check_trajectory(&box_input, &options).report;
        let what = format!("case {case} (seed {seed}): map {:?}/{} vs boxes {:?}/{}", on_map.verdict, on_map.certified, on_boxes.verdict, on_boxes.certified);
        // Soundness: a certified map is free under dense sampling of the boxes.
        if on_map.certified {
            assert!(!sampling_touches(&box_input), "{what}: certified free, and dense sampling touches");
            certified += 1;
        }
        assert_eq!(on_map.verdict == Verdict::Collision, on_boxes.verdict == Verdict::Collision, "{what}");
        if on_map.verdict == Verdict::Collision {
            colliding += 1;
            let (m, b) = (first_contacts(&on_map), first_contacts(&on_boxes));
            assert_eq!(m.iter().map(|f| &f.0).collect::<Vec<_>>(), b.iter().map(|f| &f.0).collect::<Vec<_>>(), "{what}: links in contact");
            for ((link, tm), (_, tb)) in m.iter().zip(&b) {
                assert!((tm - tb).abs() <= 1e-6, "{what}: {link} first touches at {tm} on the map, {tb} on the boxes");
            }
            assert!((on_map.time_of_contact.unwrap() - on_boxes.time_of_contact.unwrap()).abs() <= 1e-6, "{what}");
            assert!(on_map.contacts.iter().all(|c| c.other == "camera_map"));
            let (dm, db) = (on_map.max_penetration_depth.unwrap(), on_boxes.max_penetration_depth.unwrap());
            assert!((dm - db).abs() <= 1e-4 + 0.02 * db, "{what}: deepest {dm} on the map, {db} on the boxes");
        } else {
            if on_boxes.certified && !on_map.certified {
                uncertain_map_only += 1;
            }
            let (cm, cb) = (on_map.min_clearance.unwrap(), on_boxes.min_clearance.unwrap());
            assert!((cm - cb).abs() <= 2e-4 + 0.02 * cb, "{what}: clearance {cm} on the map, {cb} on the boxes");
        }
        // First-only agrees on the first contact.
        let first = check_trajectory(&map_input, &CheckOptions { first_only: true, ..options }).report;
        assert_eq!(first.verdict == Verdict::Collision, on_map.verdict == Verdict::Collision, "{what}: first-only");
        if let (Some(a), Some(b)) = (first.time_of_contact, on_map.time_of_contact) {
            assert!((a - b).abs() <= 1e-6, "{what}: first-only at {a}, whole report at {b}");
        }
    }
    println!("{cases} cases: {colliding} colliding, {certified} certified free on the map, {uncertain_map_only} certified on the boxes only");
    assert!(colliding > 0 && certified > 0, "the cases must cover both outcomes");
}

#[test]
fn sampled_method_sees_the_map() {
    let (robot, disabled) = demo_robot();
    let mut rng = Rng::new(7);
    let mut found = false;
    for _ in 0..20 {
        let map = random_map(&mut rng);
        let (map_world, box_world) = worlds(&robot, &disabled, map, Isometry3::identity());
        let trajectory = parse_trajectory(&random_trajectory(&mut rng), Path::new("random.yaml")).unwrap();
        let map_input = CheckInput::from_parts(map_world, &trajectory, None).unwrap();
        let box_input = CheckInput::from_parts(box_world, &trajectory, None).unwrap();
        let options = CheckOptions { method: Method::Sampled, ..CheckOptions::default() };
        let (a, b) = (check_trajectory(&map_input, &options).report, check_trajectory(&box_input, &options).report);
        assert_eq!(a.verdict, b.verdict);
        assert_eq!(a.time_of_contact, b.time_of_contact);
        found |= a.verdict == Verdict::Collision;
    }
    assert!(found);
}

/// The closed octahedron |x| + |y| + |z| <= `r`.
fn octahedron(r: f64) -> ccd_guard::shape::TriMesh {
    let v = |x: f64, y: f64, z: f64| ccd_guard::math::Point3::new(x, y, z) * r;
    ccd_guard::shape::TriMesh::new(
        vec![v(1.0, 0.0, 0.0), v(-1.0, 0.0, 0.0), v(0.0, 1.0, 0.0), v(0.0, -1.0, 0.0), v(0.0, 0.0, 1.0), v(0.0, 0.0, -1.0)],
        vec![[0, 2, 4], [2, 1, 4], [1, 3, 4], [3, 0, 4], [2, 0, 5], [1, 2, 5], [3, 1, 5], [0, 3, 5]],
    )
    .unwrap()
}

/// The depth search over time reuses its (cube, triangle) candidates while the shape
/// moves less than their margin: the same depths as a fresh search, at every step of a
/// slow sweep and after jumps.
#[test]
fn cached_depth_candidates_give_the_depths_of_a_fresh_search() {
    use ccd_guard::query::penetration::voxel_map_depth::{voxel_map_penetration, voxel_map_penetration_cached};
    let mut rng = Rng::new(99);
    let map = random_map(&mut rng);
    // The sweep passes through the first cube.
    let centre = map.voxel_centre(0).0;
    // A closed octahedron mesh, 6 cm across, and a ball.
    let octahedron = octahedron(0.03);
    let shapes = [Shape::TriMesh(Arc::new(octahedron)), Shape::Ball(ccd_guard::shape::Ball { radius: 0.025 })];
    let (mut compared, mut touching) = (0, 0);
    for shape in &shapes {
        let mut cache = None;
        for step in 0..400 {
            // A slow sweep with a jump every 100 steps.
            let s = step as f64 * 1e-3 + (step / 100) as f64 * 0.05;
            let pose = Isometry3::new(centre.coords + Vector3::new(-0.1 + 0.5 * s, 0.01 * (7.0 * s).sin(), 0.005), Vector3::new(0.3 * s, 1.0 * s, 0.2));
            let fresh = voxel_map_penetration(&map, &Isometry3::identity(), shape, &pose, true).map(|p| p.depth);
            let cached = voxel_map_penetration_cached(&map, &Isometry3::identity(), shape, &pose, true, &mut cache).map(|p| p.depth);
            assert_eq!(fresh, cached, "step {step}");
            compared += 1;
            touching += fresh.is_some() as usize;
        }
    }
    assert!(touching > 50 && touching < compared, "{touching} of {compared} poses touch: the sweep must cross the map");
}

/// A cube wholly inside a closed mesh touches none of its triangles, and is at distance 0
/// from it all the same (and collides); outside it, the distance is the surfaces'.
#[test]
fn a_cube_inside_a_closed_mesh_is_at_distance_zero() {
    use ccd_guard::query::distance::shape_distance;
    use ccd_guard::query::intersection::intersection_point;
    let map = VoxelMap::new(0.02, vec![Voxel { min: [KEY_CENTRE as u16; 3], level: 0 }]).unwrap();
    let centre = map.voxel_centre(0).0;
    // |x| + |y| + |z| <= 0.06 around the cube's centre: its corners are at 0.03.
    let octahedron = octahedron(0.06);
    let (map, mesh) = (Shape::VoxelMap(Arc::new(map)), Shape::TriMesh(Arc::new(octahedron)));
    let around = Isometry3::translation(centre.x, centre.y, centre.z);
    let d = shape_distance(&map, &Isometry3::identity(), &mesh, &around, Real::INFINITY).unwrap();
    assert_eq!(d.distance, 0.0);
    assert!(intersection_point(&map, &Isometry3::identity(), &mesh, &around).is_some());
    // Moved 0.1 m along x, the octahedron's tip is 0.1 - 0.06 - 0.01 = 0.03 from the cube's face.
    let apart = Isometry3::translation(centre.x + 0.1, centre.y, centre.z);
    let d = shape_distance(&map, &Isometry3::identity(), &mesh, &apart, Real::INFINITY).unwrap();
    assert!((d.distance - 0.03).abs() < 1e-9, "{}", d.distance);
}

//! What every report says, whatever the method (issue 15, item 7): every contact has a
//! unit normal pointing from the other body towards the link; a one-point trajectory
//! reports its clearance; a `--first-only` report does not claim a contact lasts to the
//! end when its end was not computed.
//!
//! The cases: the demo robot (meshes and primitives) among random boxes ("clutter"),
//! random 3-waypoint moves near its free trajectory; `REPORT_CASES=N` runs more.
use ccd_guard::check::{CheckInput, CheckOptions, Method, Verdict, check_trajectory};
use ccd_guard::clearance::body_named;
use ccd_guard::collision::{Body, CollisionWorld};
use ccd_guard::math::{Isometry3, Translation3, UnitQuaternion, Vector3};
use ccd_guard::motion::{JointMotion, parse_trajectory};
use ccd_guard::query::distance::shape_distance;
use ccd_guard::robot::resources::ResourceResolver;
use ccd_guard::robot::{srdf, urdf};
use ccd_guard::scene::{Obstacle, Scene};
use ccd_guard::shape::{Cuboid, Shape};
use std::path::Path;
use std::sync::Arc;

use crate::common::demo::demo;
use crate::common::rng::Rng;

/// The demo robot among `count` random boxes in its reach.
fn clutter(rng: &mut Rng, count: usize) -> CollisionWorld {
    let resolver = ResourceResolver::from_env(Vec::new());
    let robot = urdf::load_urdf(&demo("robot.urdf"), &resolver).unwrap();
    let disabled = srdf::parse_for_robot(&std::fs::read_to_string(demo("robot.srdf")).unwrap(), &demo("robot.srdf"), &robot).unwrap();
    let objects = (0..count)
        .map(|k| {
            let half = Vector3::new(rng.range(0.02, 0.12), rng.range(0.02, 0.12), rng.range(0.02, 0.12));
            let at = Translation3::new(rng.range(-0.6, 0.6), rng.range(-0.6, 0.6), rng.range(0.05, 0.8));
            let turn = UnitQuaternion::from_euler_angles(rng.range(-3.0, 3.0), rng.range(-3.0, 3.0), rng.range(-3.0, 3.0));
            Obstacle { id: format!("box{k}"), shape: Shape::Cuboid(Cuboid { half_extents: half }), pose: Isometry3::from_parts(at, turn) }
        })
        .collect();
    CollisionWorld::new(robot, Scene { frame_id: None, objects }, Some(&disabled))
}

/// A random move of 3 waypoints near the demo's free trajectory.
fn random_move(rng: &mut Rng, world: &CollisionWorld) -> JointMotion {
    let free = ccd_guard::motion::load_trajectory(&demo("traj_free.yaml")).unwrap();
    let mut text = format!("joint_names: {:?}\npoints:\n", free.joint_names);
    for k in 0..3 {
        let base = &free.points[rng.int(0, free.points.len() - 1)].positions;
        let q: Vec<f64> = base.iter().map(|v| v + rng.range(-0.4, 0.4)).collect();
        text += &format!("  - {{positions: {q:?}, time_from_start: {}}}\n", k as f64);
    }
    JointMotion::new(&world.robot, &parse_trajectory(&text, Path::new("random.yaml")).unwrap(), None).unwrap()
}

/// Whether moving `link` by `step` along `normal` takes it out of `other` or further
/// away: the distance of the pair's closest elements grows (or a depth shrinks).
fn normal_points_to_the_link(world: &CollisionWorld, q: &[f64], link: Body, other: Body, normal: &Vector3) -> bool {
    let poses = world.robot.link_poses(q);
    let gap = |shift: f64| {
        let mut best = f64::INFINITY;
        for ea in world.elements.iter().filter(|e| e.body == link) {
            for eb in world.elements.iter().filter(|e| e.body == other) {
                let pa = Isometry3::from_parts(Translation3::from(normal * shift), Default::default()) * world.element_pose(ea, &poses);
                let d = ccd_guard::query::penetration::shape_penetration(&ea.shape, &pa, &eb.shape, &world.element_pose(eb, &poses))
                    .map(|p| -p.depth)
                    .unwrap_or_else(|| {
                        shape_distance(&ea.shape, &pa, &eb.shape, &world.element_pose(eb, &poses), f64::INFINITY).map_or(f64::INFINITY, |c| c.distance)
                    });
                best = best.min(d);
            }
        }
        best
    };
    gap(2e-3) > gap(0.0)
}

#[test]
fn every_contact_has_a_unit_normal_from_the_other_body_to_the_link() {
    let cases: usize = std::env::var("REPORT_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(24);
    let mut rng = Rng::new(20261125);
    let (mut contacts, mut checked_directions) = (0, 0);
    for _ in 0..cases {
        let world = Arc::new(clutter(&mut rng, 12));
        let motion = random_move(&mut rng, &world);
        let input = CheckInput { world: world.clone(), motion };
        for (method, first_only) in [(Method::Certified, false), (Method::Certified, true), (Method::Sampled, false)] {
            let report = check_trajectory(&input, &CheckOptions { method, first_only, ..CheckOptions::default() }).report;
            for c in &report.contacts {
                contacts += 1;
                let n = c
                    .normal
                    .unwrap_or_else(|| panic!("{method:?} (first only: {first_only}): {} <-> {} at {} has no normal", c.link, c.other, c.time_of_contact));
                let n = Vector3::from(n);
                assert!((n.norm() - 1.0).abs() < 1e-9, "{n:?}");
                // Where the pair overlaps just after the contact, moving the link along the
                // normal separates it.
                let t = (c.time_of_contact + 1e-3).min(c.time_of_separation.unwrap_or(f64::INFINITY)).min(input.motion.end_time());
                let q = input.motion.positions_at(t);
                let (link, other) = (body_named(&world, &c.link).unwrap(), body_named(&world, &c.other).unwrap());
                if normal_points_to_the_link(&world, &q, link, other, &n) {
                    checked_directions += 1;
                }
            }
        }
    }
    eprintln!("{contacts} contacts, {checked_directions} normals separate their pair");
    assert!(contacts >= 20, "only {contacts} contacts in {cases} cases");
    // A normal is the direction just before (or just after) the contact; at a corner the
    // link may slide along it: nearly all, not all, move apart along it (412 of 415 with
    // the default cases).
    assert!(checked_directions * 100 >= contacts * 95, "{checked_directions} of {contacts} normals separate the pair");
}

#[test]
fn a_one_point_trajectory_reports_its_clearance() {
    let world = Arc::new(clutter(&mut Rng::new(7), 0));
    let home = ccd_guard::motion::load_trajectory(&demo("traj_free.yaml")).unwrap().points[0].positions.clone();
    let one = format!("joint_names: [joint1, joint2, joint3, joint4, joint5, joint6]\npoints:\n  - {{positions: {home:?}, time_from_start: 0}}\n");
    let still = format!("{one}  - {{positions: {home:?}, time_from_start: 1}}\n");
    let report_of = |text: &str| {
        let motion = JointMotion::new(&world.robot, &parse_trajectory(text, Path::new("t.yaml")).unwrap(), None).unwrap();
        check_trajectory(&CheckInput { world: world.clone(), motion }, &CheckOptions::default()).report
    };
    let (point, held) = (report_of(&one), report_of(&still));
    assert_eq!(point.verdict, Verdict::CollisionFree);
    let clearance = point.min_clearance.expect("a one-point trajectory has a clearance");
    assert!((clearance - held.min_clearance.unwrap()).abs() < 1e-9, "{clearance} against {:?}", held.min_clearance);
    assert!(clearance > 0.0 && point.closest_approach.is_some());
}

#[test]
fn a_first_only_report_does_not_say_until_the_end() {
    let resolver = ResourceResolver::from_env(Vec::new());
    let files = ccd_guard::check::InputFiles {
        urdf: demo("robot.urdf"),
        srdf: Some(demo("robot.srdf")),
        scene: Some(demo("scene.yaml")),
        trajectory: demo("traj_collide.yaml"),
        start_state: None,
    };
    let input = CheckInput::load(&files, &resolver).unwrap();
    for method in [Method::Certified, Method::Pipeline, Method::Sampled] {
        let first = check_trajectory(&input, &CheckOptions { method, first_only: true, ..CheckOptions::default() }).report.to_text();
        assert!(!first.contains("until the end") && first.contains("not computed with --first-only"), "{method:?}: {first}");
        let whole = check_trajectory(&input, &CheckOptions { method, ..CheckOptions::default() }).report.to_text();
        assert!(!whole.contains("not computed"), "{method:?}: {whole}");
    }
}

/// The clearance to the world and the self-clearance apart (issue 15, item 8): each is
/// the smallest distance of its own pairs (dense sampling finds none smaller than the
/// proven bound, and one within a sampling step of it), with its closest pair of the
/// right kind; `min_clearance` is the smaller of the two.
#[test]
fn world_and_self_clearance_apart() {
    use ccd_guard::clearance::{checked_element_pairs, pair_distance};
    let mut rng = Rng::new(314);
    let mut compared = 0;
    for _ in 0..12 {
        let world = Arc::new(clutter(&mut rng, 6));
        let motion = random_move(&mut rng, &world);
        let input = CheckInput { world: world.clone(), motion };
        let report = check_trajectory(&input, &CheckOptions::default()).report;
        if report.verdict == Verdict::Collision {
            assert!(report.world_clearance.is_none() && report.self_clearance.is_none());
            continue;
        }
        let (w, s) = (report.world_clearance.clone().expect("world"), report.self_clearance.clone().expect("self"));
        assert_eq!(report.min_clearance, Some(w.distance.min(s.distance)));
        assert!(body_named(&world, &w.other).is_some_and(|b| matches!(b, Body::Obstacle(_))), "{w:?}");
        assert!(body_named(&world, &s.other).is_some_and(|b| matches!(b, Body::Link(_))), "{s:?}");
        // Dense sampling of each kind's pairs.
        let pairs = checked_element_pairs(&world);
        let mut sampled = [f64::INFINITY; 2];
        let end = input.motion.end_time();
        for i in 0..=400 {
            let poses = world.robot.link_poses(&input.motion.positions_at(end * i as f64 / 400.0));
            for &(a, b) in &pairs {
                let kind = matches!(world.elements[b].body, Body::Link(_)) as usize;
                if let Some(d) = pair_distance(&world, (a, b), &poses, f64::INFINITY) {
                    sampled[kind] = sampled[kind].min(d.distance);
                }
            }
        }
        for (c, min) in [(&w, sampled[0]), (&s, sampled[1])] {
            assert!(c.lower_bound <= min + 1e-9, "{c:?} above the sampled {min}");
            // The search stops within 0.1 mm or 1 % of the minimum; sampling at 400 instants
            // may miss the minimum by a little.
            assert!(c.distance <= min + 1e-4f64.max(0.01 * min) && c.distance >= min - 0.02, "{c:?} against the sampled {min}");
        }
        compared += 1;
    }
    assert!(compared >= 4, "only {compared} free motions");
}

/// The plot's pair profiles: the pairs that come closest, closest first, and below zero
/// by the depth where they overlap.
#[test]
fn pair_profiles_are_signed_and_ranked() {
    use ccd_guard::clearance::{bodies_depth, pair_profiles};
    let resolver = ResourceResolver::from_env(Vec::new());
    let files = ccd_guard::check::InputFiles {
        urdf: demo("robot.urdf"),
        srdf: Some(demo("robot.srdf")),
        scene: Some(demo("scene.yaml")),
        trajectory: demo("traj_collide.yaml"),
        start_state: None,
    };
    let input = CheckInput::load(&files, &resolver).unwrap();
    let profiles = pair_profiles(&input.world, &input.motion, 200, 4);
    assert_eq!(profiles.len(), 4);
    assert!(profiles.windows(2).all(|w| w[0].least <= w[1].least));
    let first = &profiles[0];
    assert_eq!((input.world.body_name(first.link), input.world.body_name(first.other)), ("gripper", "box"));
    let deepest = first.samples.iter().min_by(|a, b| a.distance.total_cmp(&b.distance)).unwrap();
    assert!(deepest.distance < -0.01, "{deepest:?}");
    let poses = input.world.robot.link_poses(&input.motion.positions_at(deepest.time));
    assert_eq!(deepest.distance, -bodies_depth(&input.world, first.link, first.other, &poses));
    assert!(profiles[1..].iter().all(|p| p.least >= 0.0));
}

//! The joints' levers (`motion_bounds::joint_levers`), the Lipschitz bound of a pair's
//! distance in joint space that the clearance search settles a segment's cells with
//! from the waypoints it measured: on the demo's arm (STL meshes and primitives) in its
//! work cell, turning one joint moves no point of an element farther than its lever
//! times the angle, and between two configurations no checked pair's distance changes
//! by more than its levers times the joints' changes. The levers must also be near
//! what the arm does (a lever made ten times too long would pass the first two and
//! settle nothing).
use ccd_guard::clearance::{ClearanceSearch, pair_distance};
use ccd_guard::collision::{Body, CollisionWorld};
use ccd_guard::demo::{CASES, case_input};
use ccd_guard::math::{Point3, Real, Vector3};
use ccd_guard::motion_bounds::conservative_advancement::BoundingBall;
use ccd_guard::motion_bounds::joint_levers::PairLevers;
use ccd_guard::shape::Shape;

use crate::common::rng::Rng;

fn ball(world: &CollisionWorld, e: usize) -> BoundingBall {
    let obb = &world.elements[e].local_obb;
    BoundingBall { center: obb.center, radius: obb.half_extents.norm() * (1.0 + 1e-12) }
}

/// Points of element `e`'s shape in its frame: a mesh's vertices, a primitive's support
/// points along a spread of directions.
fn material_points(world: &CollisionWorld, e: usize) -> Vec<Point3> {
    match &world.elements[e].shape {
        Shape::TriMesh(m) => m.vertices().to_vec(),
        shape => {
            let support = shape.as_support_map().expect("a primitive");
            let mut rng = Rng::new(7);
            (0..64).map(|_| support.support(&Vector3::from(rng.unit()))).collect()
        }
    }
}

/// A configuration within the joints' limits (±π where they have none).
fn random_configuration(world: &CollisionWorld, rng: &mut Rng) -> Vec<Real> {
    let robot = &world.robot;
    robot
        .variables
        .iter()
        .map(|&j| {
            let joint = &robot.joints[j];
            let (lo, hi) = (joint.lower.max(-std::f64::consts::PI), joint.upper.min(std::f64::consts::PI));
            rng.range(lo, hi)
        })
        .collect()
}

#[test]
fn one_joint_moves_an_element_no_farther_than_its_lever() {
    let input = case_input(&CASES[0]).unwrap();
    let world = &input.world;
    let robot = &world.robot;
    let mut rng = Rng::new(0x1e7e5);
    let (mut checked, mut levers_seen, mut near) = (0, 0, 0);
    for (e, element) in world.elements.iter().enumerate() {
        if !matches!(element.body, Body::Link(_)) {
            continue;
        }
        let all: Vec<usize> = (0..robot.joints.len()).collect();
        let levers = PairLevers::of_element(robot, element, &ball(world, e), &all);
        let points = material_points(world, e);
        for &(v, lever) in &levers {
            // The largest displacement per radian seen, over configurations and angles.
            let mut largest: Real = 0.0;
            for _ in 0..40 {
                let q = random_configuration(world, &mut rng);
                let delta = rng.range(-0.5, 0.5);
                let mut turned = q.clone();
                turned[v] += delta;
                let (before, after) = (robot.link_poses(&q), robot.link_poses(&turned));
                let (pose, moved) = (world.element_pose(element, &before), world.element_pose(element, &after));
                for p in &points {
                    let displacement = (moved * p - pose * p).norm();
                    assert!(
                        displacement <= lever * delta.abs() * (1.0 + 1e-9) + 1e-12,
                        "element {e}, variable {v}: {displacement} over {delta} rad, lever {lever}"
                    );
                    largest = largest.max(displacement / delta.abs());
                }
                checked += 1;
            }
            // At worst the element's farthest point lies across from the joint, at the
            // chain's full length: the lever is never more than twice what is seen.
            levers_seen += 1;
            near += usize::from(largest >= 0.5 * lever);
        }
    }
    eprintln!("{checked} turns checked, {near} of {levers_seen} levers within twice the largest displacement seen");
    assert!(checked >= 400 && near * 10 >= 7 * levers_seen, "{checked} turns, {near} of {levers_seen} levers near what is seen");
}

#[test]
fn no_pair_distance_changes_by_more_than_its_levers() {
    let input = case_input(&CASES[0]).unwrap();
    let world = &input.world;
    let search = ClearanceSearch::new(world);
    let mut rng = Rng::new(0xd15);
    let (mut checked, mut tight) = (0, 0);
    for _ in 0..60 {
        let q = random_configuration(world, &mut rng);
        let step = rng.range(0.001, 0.3);
        let moved: Vec<Real> = q.iter().map(|x| x + rng.range(-step, step)).collect();
        let (before, after) = (world.robot.link_poses(&q), world.robot.link_poses(&moved));
        for (p, &pair) in search.pairs().iter().enumerate() {
            let (Some(d0), Some(d1)) = (pair_distance(world, pair, &before, Real::INFINITY), pair_distance(world, pair, &after, Real::INFINITY)) else {
                continue;
            };
            let deviations: Vec<Real> = q.iter().zip(&moved).map(|(a, b)| (a - b).abs()).collect();
            let drop = search.pair_levers(p).drop(&deviations);
            let change = (d1.distance - d0.distance).abs();
            assert!(change <= drop + 1e-12, "pair {pair:?}: distance {} -> {}, levers allow {drop}", d0.distance, d1.distance);
            checked += 1;
            tight += usize::from(change >= 0.2 * drop && change > 0.0);
        }
    }
    eprintln!("{checked} pair changes checked, {tight} at least a fifth of what the levers allow");
    assert!(checked >= 500 && tight >= 20, "{checked} checked, {tight} tight");
}

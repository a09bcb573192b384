//! Distances in one configuration: of one element pair, and the smallest over all
//! checked pairs (pairs ordered and pruned by the distance of their world boxes).
//!
//! A pair of elements with convex hulls (meshes, boxes) is first measured hull to hull
//! by Lin–Canny's closest features, warm started from the pair's last query (Lin 1993
//! §4.1: only the root pair is tracked until the hulls come close): a mesh lies in
//! its hull, so a hull distance at or above the cutoff ends the query, and for two
//! boxes it is the answer.
use crate::collision::{Body, CollisionWorld};
use crate::math::{Isometry3, Point3, Real};
use crate::query::closest_features::{ConvexPolyhedron, WarmStart, closest_features_cached};
use crate::query::distance::shape_distance;
use crate::shape::Shape;
use std::sync::OnceLock;

/// The distance of one element pair `(a, b)`, with its closest world points.
#[derive(Clone, Copy, Debug)]
pub struct PairDistance {
    pub distance: Real,
    pub elements: (usize, usize),
    pub point_a: Point3,
    pub point_b: Point3,
}

/// Every checked element pair `(link element, other element)`.
pub fn checked_element_pairs(world: &CollisionWorld) -> Vec<(usize, usize)> {
    let mut pairs = Vec::new();
    for (a, ea) in world.elements.iter().enumerate() {
        let Body::Link(_) = ea.body else { continue };
        for (b, eb) in world.elements.iter().enumerate() {
            let later_link = matches!(eb.body, Body::Link(_)) && b <= a;
            if !later_link && ea.body != eb.body && world.is_checked(ea.body, eb.body) {
                pairs.push((a, b));
            }
        }
    }
    pairs
}

/// The convex hull of each element where it has one worth tracking: of a mesh's
/// vertices (a bound), or a box (the shape itself, `exact`). Each is built when first
/// asked for: a mesh's hull costs milliseconds, more than a short search spends on it.
pub struct ElementHulls<'w> {
    world: &'w CollisionWorld,
    hulls: Vec<OnceLock<Option<(ConvexPolyhedron, bool)>>>,
}

impl<'w> ElementHulls<'w> {
    pub fn new(world: &'w CollisionWorld) -> Self {
        Self { world, hulls: (0..world.elements.len()).map(|_| OnceLock::new()).collect() }
    }

    /// Whether element `e` has a hull (a mesh or a box), without building it.
    pub fn has_hull(&self, e: usize) -> bool {
        matches!(self.world.elements[e].shape, Shape::TriMesh(_) | Shape::Cuboid(_))
    }

    /// Whether element `e`'s hull has been built (or found not to exist).
    pub fn is_built(&self, e: usize) -> bool {
        self.hulls[e].get().is_some()
    }

    /// Element `e`'s hull, and whether it is the shape itself (a box).
    pub fn get(&self, e: usize) -> Option<(&ConvexPolyhedron, bool)> {
        let element = &self.world.elements[e];
        self.hulls[e]
            .get_or_init(|| match &element.shape {
                Shape::TriMesh(m) => ConvexPolyhedron::from_points(&distinct(m.vertices())).ok().map(|h| (h, false)),
                Shape::Cuboid(_) => ConvexPolyhedron::from_points(&element.local_obb.corners()).ok().map(|h| (h, true)),
                _ => None,
            })
            .as_ref()
            .map(|(h, exact)| (h, *exact))
    }
}

/// The points without repeats (a mesh read from STL lists each vertex once per
/// triangle); the hull of the points is the same.
fn distinct(points: &[Point3]) -> Vec<Point3> {
    let mut keyed: Vec<([u64; 3], Point3)> = points.iter().map(|p| ([p.x.to_bits(), p.y.to_bits(), p.z.to_bits()], *p)).collect();
    keyed.sort_unstable_by_key(|x| x.0);
    keyed.dedup_by(|x, y| x.0 == y.0);
    keyed.into_iter().map(|(_, p)| p).collect()
}

/// As [`pair_distance`], with the hull-to-hull test first (warm started from `cache`,
/// which belongs to this pair).
pub fn pair_distance_tracked(
    world: &CollisionWorld,
    hulls: &ElementHulls,
    (a, b): (usize, usize),
    link_poses: &[Isometry3],
    cutoff: Real,
    cache: &mut WarmStart,
) -> Option<PairDistance> {
    if let (Some((ha, exact_a)), Some((hb, exact_b))) = (hulls.get(a), hulls.get(b)) {
        let (pose_a, pose_b) = (world.element_pose(&world.elements[a], link_poses), world.element_pose(&world.elements[b], link_poses));
        let found = closest_features_cached(ha, &pose_a, hb, &pose_b, cache);
        if found.distance >= cutoff {
            return None;
        }
        if exact_a && exact_b && !found.penetrating {
            return Some(PairDistance { distance: found.distance, elements: (a, b), point_a: found.point_a, point_b: found.point_b });
        }
    }
    pair_distance(world, (a, b), link_poses, cutoff)
}

/// The distance of the pair with the links at `link_poses`, if below `cutoff`.
pub fn pair_distance(world: &CollisionWorld, (a, b): (usize, usize), link_poses: &[Isometry3], cutoff: Real) -> Option<PairDistance> {
    let (ea, eb) = (&world.elements[a], &world.elements[b]);
    let (pose_a, pose_b) = (world.element_pose(ea, link_poses), world.element_pose(eb, link_poses));
    let cp = shape_distance(&ea.shape, &pose_a, &eb.shape, &pose_b, cutoff)?;
    Some(PairDistance { distance: cp.distance, elements: (a, b), point_a: cp.point_a, point_b: cp.point_b })
}

/// The closest of `pairs` with the links at `link_poses`, if closer than `cutoff`.
pub fn world_distance(world: &CollisionWorld, pairs: &[(usize, usize)], link_poses: &[Isometry3], cutoff: Real) -> Option<PairDistance> {
    let boxes: Vec<_> = world.elements.iter().map(|e| e.body_obb.transformed_aabb(&body_pose(e.body, link_poses))).collect();
    let mut ordered: Vec<(Real, (usize, usize))> = pairs.iter().map(|&(a, b)| (boxes[a].distance(&boxes[b]), (a, b))).collect();
    ordered.sort_by(|x, y| x.0.total_cmp(&y.0));
    let mut best: Option<PairDistance> = None;
    let mut best_distance = cutoff;
    for (gap, pair) in ordered {
        // The box gap is a lower bound (the boxes hold the elements).
        if gap >= best_distance {
            break;
        }
        if let Some(d) = pair_distance(world, pair, link_poses, best_distance) {
            best_distance = d.distance;
            best = Some(d);
        }
    }
    best
}

/// The pose of a body's frame: a link's pose, or the world frame for obstacles (whose
/// element boxes are given in the world frame).
pub(super) fn body_pose(body: Body, link_poses: &[Isometry3]) -> Isometry3 {
    match body {
        Body::Link(l) => link_poses[l],
        Body::Obstacle(_) => Isometry3::identity(),
    }
}

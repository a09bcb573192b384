//! The certifier's subdivision (Schröcker & Weber 2013 §6, Listings 1 and 2) over the element pairs
//! that the pipeline's culling keeps: per dyadic time cell, a ball of affine maps holds
//! each moving element's motion relative to the other element ([`motion_ball`]); its
//! hierarchy is tested against the other's, nodes by their boxes grown by R·max ϱ, and
//! leaves by the exact orbit tests of vertices, edges and faces (§4). What is excluded
//! on a cell stays excluded on its sub-cells: only the rest is tested after a split
//! (Remark 2; an exclusion holds for the whole interval, so the pruning needs no nested
//! balls). A pair whose ball is below the tolerance (equation 11) without being excluded
//! is left unproven.
use super::metric::ObjectMetric;
use super::motion_ball::{MotionBall, arc_length_ball, metric_speed_bound, motion_ball, relative_metric_speed_bound};
use super::orbit::{DistortionQuadratic, Orbit};
use crate::bounding_volume::Obb;
use crate::collision::{Body, CollisionWorld, Element};
use crate::enclosure::{KinematicTree, LinkEnclosure, LinkJet};
use crate::math::{Isometry3, Point3, Real, Triangle};
use crate::motion::Segment;
use crate::motion_bounds::element_motion::{element_relative_pose, element_world_pose, poses_at};
use crate::motion_bounds::element_nodes::{Leaf, LeafShape, leaf_shape, leaf_triangle, node_obb, obb_cuboid};
use crate::motion_bounds::time_cells::{SolveRange, TimeCell};
use crate::query::gjk;
use crate::shape::{Cuboid, Shape, SupportMap};

/// Slack (metres) on every separation the certifier relies on: covers the rounding of
/// mapping the fixed geometry into the moving frame and of GJK's bounds, far above both.
const SLACK: Real = 1e-9;
/// Descend a node pair only while the grown box is small against the node; before that,
/// splitting time excludes more per test.
const DESCEND_RATIO: Real = 0.5;

#[derive(Clone, Copy, Debug)]
pub struct CertifyOptions {
    /// Equation 11's ε (metres): below it a pair is left unproven.
    pub tolerance: Real,
    /// Subdivision depth at which a pair is left unproven anyway.
    pub max_depth: u32,
    /// Also build arc-length balls and keep the smaller ball; off, every ball comes from
    /// the pose enclosures alone (for comparisons).
    pub arc_length_balls: bool,
}

impl Default for CertifyOptions {
    fn default() -> Self {
        Self { tolerance: 1e-3, max_depth: 40, arc_length_balls: true }
    }
}

/// Work of the certifier, for `--stats`.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct CertifierStats {
    pub time_cells: usize,
    pub node_tests: usize,
    pub orbit_tests: usize,
    pub deepest_level: u32,
    /// Motion balls built, and how many of them came from the arc length (smaller than
    /// the enclosure's ball).
    pub motion_balls: usize,
    pub arc_length_balls: usize,
}

impl std::ops::AddAssign<&CertifierStats> for CertifierStats {
    fn add_assign(&mut self, o: &CertifierStats) {
        self.time_cells += o.time_cells;
        self.node_tests += o.node_tests;
        self.orbit_tests += o.orbit_tests;
        self.deepest_level = self.deepest_level.max(o.deepest_level);
        self.motion_balls += o.motion_balls;
        self.arc_length_balls += o.arc_length_balls;
    }
}

/// A pair the certifier could not exclude: local times of the cell where it stopped.
#[derive(Clone, Copy, Debug)]
pub struct Unproven {
    pub moving: usize,
    pub fixed: usize,
    pub s_lo: Real,
    pub s_hi: Real,
}

/// Per element, what the certifier precomputes once per robot (Schröcker & Weber §6): the
/// metric of each link element, and the largest distortion rate over it.
pub struct CertifierData {
    metrics: Vec<Option<ObjectMetric>>,
    /// ϱ² of each link element as a quadratic form (what the tests evaluate).
    quadratics: Vec<Option<DistortionQuadratic>>,
    max_rates: Vec<Real>,
}

impl CertifierData {
    pub fn new(world: &CollisionWorld) -> Self {
        let (mut metrics, mut max_rates) = (Vec::new(), Vec::new());
        for e in &world.elements {
            let points = mass_points(e);
            let metric = matches!(e.body, Body::Link(_)).then(|| ObjectMetric::from_points(&points));
            max_rates.push(metric.map_or(0.0, |m| m.max_distortion_rate(&e.local_obb.corners())));
            metrics.push(metric);
        }
        let quadratics = metrics.iter().map(|m| m.map(|m| m.quadratic())).collect();
        Self { metrics, quadratics, max_rates }
    }
}

/// The point masses of an element's mass distribution: a mesh's hull vertices, or the
/// corners of a primitive's box.
fn mass_points(e: &Element) -> Vec<Point3> {
    match &e.shape {
        Shape::TriMesh(m) => {
            let hull = m.hull();
            // The hull's extreme vertices along the box's axes and diagonals.
            let mut points: Vec<Point3> = e.local_obb.corners().iter().map(|c| hull.core_support(&(c - e.local_obb.center))).collect();
            points.extend((0..3).flat_map(|k| {
                let axis = e.local_obb.axes.column(k).into_owned();
                [hull.core_support(&axis), hull.core_support(&-axis)]
            }));
            points
        }
        _ => e.local_obb.corners().to_vec(),
    }
}

/// One thing to exclude: a node of the moving element against a node of the fixed one.
#[derive(Clone, Copy, Debug)]
struct Item {
    pair: u32,
    moving: u32,
    fixed: u32,
}

pub struct Certifier<'w> {
    world: &'w CollisionWorld,
    data: &'w CertifierData,
    tree: KinematicTree,
    options: CertifyOptions,
    pub stats: CertifierStats,
}

impl<'w> Certifier<'w> {
    pub fn new(world: &'w CollisionWorld, data: &'w CertifierData, options: CertifyOptions) -> Self {
        Self { world, data, tree: KinematicTree::new(&world.robot), options, stats: CertifierStats::default() }
    }

    /// Proves every element pair `(link element, other element)` free over the whole
    /// segment, or names one it could not.
    pub fn certify_segment(&mut self, segment: &Segment, pairs: &[(usize, usize)]) -> Result<(), Unproven> {
        let mut range = SolveRange::new(&self.world.robot, segment, 0.0, segment.duration);
        let work: Vec<Item> = (0..pairs.len() as u32).map(|pair| Item { pair, moving: 0, fixed: 0 }).collect();
        self.certify_cell(&mut range, pairs, TimeCell::ROOT, work)
    }

    fn certify_cell(&mut self, range: &mut SolveRange, pairs: &[(usize, usize)], cell: TimeCell, work: Vec<Item>) -> Result<(), Unproven> {
        if work.is_empty() {
            return Ok(());
        }
        self.stats.time_cells += 1;
        self.stats.deepest_level = self.stats.deepest_level.max(cell.level);
        let (l, r) = range.bounds(cell);
        let links = range.enclosures_for_pairs(l, r, self.world, &self.tree, work.iter().map(|item| pairs[item.pair as usize]));
        let middle = 0.5 * (l + r);
        let poses = poses_at(self.world, range.segment(), middle);
        // For the arc-length balls: the pose rates over the cell, and the poses at its
        // middle instant (computed once, when first needed).
        let mut arc: Option<(Vec<LinkJet>, Vec<LinkEnclosure>)> = None;
        let half_duration = (middle - l).max(r - middle) * (1.0 + 4.0 * Real::EPSILON);
        // Per pair: its ball, and whether the arc-length ball was tried yet (only once an
        // item of the pair is not excluded by the enclosure's ball: most cells never
        // need the pose rates).
        let mut balls: Vec<Option<(MotionBall, bool)>> = vec![None; pairs.len()];
        let work_pairs: Vec<u32> = work.iter().map(|item| item.pair).collect();
        let mut survivors = Vec::new();
        let mut queue = work;
        while let Some(item) = queue.pop() {
            let (a, b) = pairs[item.pair as usize];
            let (moving, fixed) = (&self.world.elements[a], &self.world.elements[b]);
            let metric = self.data.metrics[a].as_ref().expect("the moving element is a link's");
            let quadratic = self.data.quadratics[a].as_ref().expect("the moving element is a link's");
            let (mut ball, mut tried) = *balls[item.pair as usize].get_or_insert_with(|| {
                let over = element_relative_pose(&self.tree, fixed, moving, &links);
                let centre = element_world_pose(fixed, &poses).inv_mul(&element_world_pose(moving, &poses));
                self.stats.motion_balls += 1;
                (motion_ball(metric, &over, &centre, SLACK), !self.options.arc_length_balls)
            });
            // Where the fixed element's frame lies in the moving element's, at the centre.
            let fixed_in_moving = ball.centre.inverse();
            let mut outcome = self.test(quadratic, &ball, moving, fixed, &fixed_in_moving, item);
            if !tried && !matches!(outcome, Outcome::Excluded) {
                tried = true;
                let Body::Link(link) = moving.body else { unreachable!("the moving element is a link's") };
                let (jets, at_middle) = arc.get_or_insert_with(|| {
                    let pairs_here = work_pairs.iter().map(|&p| pairs[p as usize]);
                    (range.jets(l, r), range.enclosures_for_pairs(middle, middle, self.world, &self.tree, pairs_here))
                });
                let offset = motion_ball(metric, &element_relative_pose(&self.tree, fixed, moving, at_middle), &ball.centre, 0.0).radius;
                let speed = match fixed.body {
                    Body::Obstacle(_) => metric_speed_bound(metric, &jets[link], &moving.origin),
                    Body::Link(other) => relative_metric_speed_bound(metric, &jets[link], &moving.origin, &jets[other]),
                };
                let arc_ball = arc_length_ball(metric, &ball.centre, offset, speed, half_duration, SLACK);
                if arc_ball.radius < ball.radius {
                    self.stats.arc_length_balls += 1;
                    ball = arc_ball;
                    outcome = self.test(quadratic, &ball, moving, fixed, &fixed_in_moving, item);
                }
            }
            balls[item.pair as usize] = Some((ball, tried));
            match outcome {
                Outcome::Excluded => {}
                Outcome::Descend(children) => queue.extend(children.into_iter().flatten()),
                Outcome::Kept => {
                    // Equation 11: a ball this small that still may hit is left unproven.
                    if ball.radius * self.data.max_rates[a] < self.options.tolerance || cell.level >= self.options.max_depth {
                        return Err(Unproven { moving: a, fixed: b, s_lo: l, s_hi: r });
                    }
                    survivors.push(item);
                }
            }
        }
        for child in cell.children() {
            self.certify_cell(range, pairs, child, survivors.clone())?;
        }
        Ok(())
    }

    /// One item on one cell: excluded, split into node pairs, or kept for the sub-cells.
    fn test(
        &mut self,
        quadratic: &DistortionQuadratic,
        ball: &MotionBall,
        moving: &Element,
        fixed: &Element,
        fixed_in_moving: &Isometry3,
        item: Item,
    ) -> Outcome {
        self.stats.node_tests += 1;
        let (box_m, leaf_m) = node_obb(moving, item.moving);
        let (box_f, leaf_f) = node_obb(fixed, item.fixed);
        let grown = ball.radius * max_rate(quadratic, &box_m.corners());
        let leaves = !matches!(leaf_m, Leaf::Inner(..)) && !matches!(leaf_f, Leaf::Inner(..));
        if boxes_apart(&box_m, &box_f, fixed_in_moving, grown, leaves) {
            return Outcome::Excluded;
        }
        let size_m = box_m.half_extents.norm();
        let size_f = box_f.half_extents.norm();
        match (leaf_m, leaf_f) {
            (Leaf::Inner(..), _) | (_, Leaf::Inner(..)) if grown > DESCEND_RATIO * size_m.max(size_f) => Outcome::Kept,
            (Leaf::Inner(m1, m2), Leaf::Inner(f1, f2)) => Outcome::Descend(if size_m >= size_f {
                [Some(Item { moving: m1, ..item }), Some(Item { moving: m2, ..item })]
            } else {
                [Some(Item { fixed: f1, ..item }), Some(Item { fixed: f2, ..item })]
            }),
            (Leaf::Inner(m1, m2), _) => Outcome::Descend([Some(Item { moving: m1, ..item }), Some(Item { moving: m2, ..item })]),
            (_, Leaf::Inner(f1, f2)) => Outcome::Descend([Some(Item { fixed: f1, ..item }), Some(Item { fixed: f2, ..item })]),
            _ => {
                if self.leaves_apart(quadratic, ball, moving, fixed, fixed_in_moving, item, &box_m) {
                    Outcome::Excluded
                } else {
                    Outcome::Kept
                }
            }
        }
    }

    /// Two leaves: the exact orbit tests of Schröcker & Weber §4 where both sides are polyhedral
    /// (triangles, boxes), else the leaf grown by R·max ϱ against the curved shape.
    #[allow(clippy::too_many_arguments)]
    fn leaves_apart(
        &mut self,
        quadratic: &DistortionQuadratic,
        ball: &MotionBall,
        moving: &Element,
        fixed: &Element,
        fixed_in_moving: &Isometry3,
        item: Item,
        box_m: &Obb,
    ) -> bool {
        let moving_triangles = polyhedral_faces(moving, item.moving);
        let fixed_triangles = polyhedral_faces(fixed, item.fixed);
        match (&moving_triangles, &fixed_triangles) {
            (Some(mt), Some(ft)) => {
                let orbit = Orbit { quadratic: *quadratic, radius: ball.radius };
                let ft: Vec<Triangle> = ft.iter().map(|t| t.map(|p| fixed_in_moving * p)).collect();
                self.stats.orbit_tests += mt.len() * ft.len();
                !mt.iter().any(|m| ft.iter().any(|f| orbit.triangle_may_hit_triangle(m, f)))
            }
            _ => {
                // The leaf's real shape, grown by the largest displacement over it.
                let grown = ball.radius * max_rate(quadratic, &box_m.corners());
                let (leaf_m, leaf_f) = (leaf_shape(moving, item.moving), leaf_shape(fixed, item.fixed));
                gjk::distance_lower_bound(&leaf_m, &Isometry3::identity(), &leaf_f, fixed_in_moving) > grown + SLACK
            }
        }
    }
}

/// The largest distortion rate over the convex hull of `points` (ϱ² is convex).
fn max_rate(quadratic: &DistortionQuadratic, points: &[Point3]) -> Real {
    points.iter().map(|p| quadratic.rate_sq(p)).fold(0.0, Real::max).sqrt()
}

enum Outcome {
    Excluded,
    Descend([Option<Item>; 2]),
    Kept,
}

/// Whether box `a` (moving frame), grown by `grown`, and box `b` (fixed frame, placed by
/// `b_in_a`) are proven apart.
fn boxes_apart(a: &Obb, b: &Obb, b_in_a: &Isometry3, grown: Real, exact: bool) -> bool {
    // First the separating axes with `a` grown by as much in every direction (a box
    // holding the grown box): cheap; then, for leaves (where the next step is costlier
    // than GJK), GJK on the exact boxes.
    let a_grown = Obb { half_extents: a.half_extents.add_scalar(grown + SLACK), ..*a };
    if !a_grown.intersects(b, b_in_a) {
        return true;
    }
    if !exact {
        return false;
    }
    let (ca, pa) = obb_cuboid(a);
    let (cb, pb) = obb_cuboid(b);
    gjk::distance_lower_bound(&ca, &pa, &cb, &(b_in_a * pb)) > grown + SLACK
}

/// The faces of a polyhedral leaf, in its element's frame: a mesh triangle, or a box's
/// or a voxel's twelve; `None` for a curved primitive.
fn polyhedral_faces(e: &Element, node: u32) -> Option<Vec<Triangle>> {
    match (&e.shape, leaf_shape(e, node)) {
        (Shape::TriMesh(_), _) => Some(vec![leaf_triangle(e, node)]),
        (Shape::Cuboid(c), _) => Some(cuboid_faces(c)),
        (_, LeafShape::Cube(cube)) => {
            let centre = cube.center().coords;
            Some(cuboid_faces(&Cuboid { half_extents: cube.half_extents() }).into_iter().map(|t| t.map(|p| p + centre)).collect())
        }
        _ => None,
    }
}

/// A box's surface as twelve triangles.
pub fn cuboid_faces(c: &Cuboid) -> Vec<Triangle> {
    let h = c.half_extents;
    let corner = |i: usize| Point3::new(if i & 1 == 0 { -h.x } else { h.x }, if i & 2 == 0 { -h.y } else { h.y }, if i & 4 == 0 { -h.z } else { h.z });
    // Each face by its four corners (bit k fixed), split along a diagonal.
    let mut faces = Vec::with_capacity(12);
    for k in 0..3 {
        for side in [0, 1 << k] {
            let free: Vec<usize> = (0..3).filter(|&j| j != k).map(|j| 1 << j).collect();
            let quad = [side, side | free[0], side | free[0] | free[1], side | free[1]].map(corner);
            faces.push([quad[0], quad[1], quad[2]]);
            faces.push([quad[0], quad[2], quad[3]]);
        }
    }
    faces
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::Vector3;

    #[test]
    fn cuboid_faces_cover_the_surface() {
        let c = Cuboid { half_extents: Vector3::new(1.0, 2.0, 3.0) };
        let faces = cuboid_faces(&c);
        assert_eq!(faces.len(), 12);
        let area: Real = faces.iter().map(|t| (t[1] - t[0]).cross(&(t[2] - t[0])).norm() / 2.0).sum();
        assert!((area - 2.0 * (2.0 * 4.0 + 2.0 * 6.0 + 4.0 * 6.0)).abs() < 1e-12, "area {area}");
    }
}

//! Discrete collision of one configuration: broad phase over element boxes, then
//! the exact tests.
use super::{Body, CollisionWorld};
use crate::bounding_volume::Aabb;
use crate::math::{Isometry3, Point3, Real};
use crate::partitioning::broad_phase::{BroadPhaseKind, SortAndSweep, UniformGrid, choose_broad_phase};
use crate::query::intersection::intersection_point;

/// A touching pair in one configuration.
#[derive(Clone, Debug, PartialEq)]
pub struct StateContact {
    /// The link (the lower index for a self-collision).
    pub link: usize,
    /// The obstacle, or the other link.
    pub other: Body,
    /// A world point in both.
    pub point: Point3,
}

enum BroadPhase {
    Grid,
    Sweep(SortAndSweep),
}

/// Checks configurations of one world, one after the other, keeping the broad phase's
/// sorted lists between calls (coherence, Lin 1993 ch. 5).
pub struct StateChecker<'w> {
    world: &'w CollisionWorld,
    poses: Vec<Isometry3>,
    aabbs: Vec<Aabb>,
    broad_phase: BroadPhase,
}

impl<'w> StateChecker<'w> {
    pub fn new(world: &'w CollisionWorld) -> Self {
        let mut checker = Self { world, poses: Vec::new(), aabbs: Vec::new(), broad_phase: BroadPhase::Grid };
        checker.place(&world.robot.default_positions());
        checker.broad_phase = match choose_broad_phase(&checker.aabbs) {
            BroadPhaseKind::UniformGrid => BroadPhase::Grid,
            BroadPhaseKind::SortAndSweep => BroadPhase::Sweep(SortAndSweep::new()),
        };
        checker
    }

    /// The broad phase chosen for this world.
    pub fn broad_phase_kind(&self) -> BroadPhaseKind {
        match self.broad_phase {
            BroadPhase::Grid => BroadPhaseKind::UniformGrid,
            BroadPhase::Sweep(_) => BroadPhaseKind::SortAndSweep,
        }
    }

    fn place(&mut self, q: &[Real]) {
        self.poses.resize(self.world.robot.links.len(), Isometry3::identity());
        self.world.robot.link_poses_into(q, &mut self.poses);
        let (world, poses) = (self.world, &self.poses);
        self.aabbs.clear();
        self.aabbs.extend(world.elements.iter().map(|e| e.local_obb.transformed_aabb(&world.element_pose(e, poses))));
    }

    /// World poses of the links at the last configuration checked.
    pub fn link_poses(&self) -> &[Isometry3] {
        &self.poses
    }

    /// Every touching pair at joint vector `q`, sorted by (link, other); with
    /// `first_only`, at most one.
    pub fn contacts(&mut self, q: &[Real], first_only: bool) -> Vec<StateContact> {
        self.place(q);
        let candidates = match &mut self.broad_phase {
            BroadPhase::Grid => UniformGrid::new(&self.aabbs).pairs(&self.aabbs),
            BroadPhase::Sweep(sweep) => sweep.pairs(&self.aabbs),
        };
        let world = self.world;
        let mut found: Vec<StateContact> = Vec::new();
        for (i, j) in candidates {
            let (ei, ej) = (&world.elements[i], &world.elements[j]);
            if ei.body == ej.body || !world.is_checked(ei.body, ej.body) {
                continue;
            }
            let (link, other) = canonical_pair(ei.body, ej.body);
            if found.iter().any(|c| c.link == link && c.other == other) {
                continue;
            }
            let (pi, pj) = (world.element_pose(ei, &self.poses), world.element_pose(ej, &self.poses));
            if let Some(point) = intersection_point(&ei.shape, &pi, &ej.shape, &pj) {
                found.push(StateContact { link, other, point });
                if first_only {
                    break;
                }
            }
        }
        found.sort_by_key(|a| (a.link, a.other));
        found
    }
}

/// (link, other): the link first; for two links the lower index first.
fn canonical_pair(a: Body, b: Body) -> (usize, Body) {
    match (a, b) {
        (Body::Link(x), Body::Link(y)) => (x.min(y), Body::Link(x.max(y))),
        (Body::Link(x), other) | (other, Body::Link(x)) => (x, other),
        _ => unreachable!("obstacle pairs are never checked"),
    }
}

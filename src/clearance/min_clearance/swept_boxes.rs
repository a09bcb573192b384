//! The elements' boxes over each whole segment of a motion (a link's swept box from its
//! pose enclosure, an obstacle's where it stands): what bounds a pair's first cell over
//! a segment. Made once per segment for every search over the motion that shares them
//! (the clearance to the world and the self-clearance), by whichever search needs a
//! segment first. (Each search making its own would compute the link enclosures of
//! every segment twice, a noticeable share of a whole report.)
use crate::bounding_volume::Aabb;
use crate::clearance::world_distance::body_pose;
use crate::collision::{Body, CollisionWorld};
use crate::enclosure::link_enclosures;
use crate::motion::JointMotion;
use std::sync::OnceLock;

pub(super) struct SweptBoxes<'m> {
    world: &'m CollisionWorld,
    motion: &'m JointMotion,
    /// Per element: an obstacle's box (links' left empty, their boxes are per segment).
    standing: Vec<Aabb>,
    per_segment: Vec<OnceLock<Vec<Aabb>>>,
}

impl<'m> SweptBoxes<'m> {
    pub(super) fn new(world: &'m CollisionWorld, motion: &'m JointMotion) -> Self {
        let standing = world
            .elements
            .iter()
            .map(|e| match e.body {
                Body::Link(_) => Aabb::empty(),
                Body::Obstacle(_) => e.body_obb.transformed_aabb(&body_pose(e.body, &[])),
            })
            .collect();
        Self { world, motion, standing, per_segment: motion.segments.iter().map(|_| OnceLock::new()).collect() }
    }

    /// Every element's box over the whole of segment `k`.
    pub(super) fn of_segment(&self, k: usize) -> &[Aabb] {
        self.per_segment[k].get_or_init(|| {
            let (world, segment) = (self.world, &self.motion.segments[k]);
            let mut links = Vec::new();
            link_enclosures(&world.robot, segment, 0.0, segment.duration, false, None, &mut links);
            let mut boxes = self.standing.clone();
            for (e, swept) in world.elements.iter().zip(&mut boxes) {
                if let Body::Link(l) = e.body {
                    *swept = links[l].pose.obb_aabb(&e.body_obb);
                }
            }
            boxes
        })
    }
}

//! Stage 2, swept-volume culling with line-swept spheres (Redon et al. 2004 §4.2), on the CPU and
//! conservative: instead of tessellating the swept LSS (whose error could hide a
//! contact), each LSS endpoint's positions over the interval are enclosed in a box, and
//! the swept LSS lies in the convex hull of the two boxes grown by the radius. A pair
//! is dropped only when GJK proves that hull farther than the radii from the other side.
use crate::bounding_volume::{Aabb, Lss, Obb};
use crate::collision::{Body, CollisionWorld};
use crate::enclosure::LinkEnclosure;
use crate::math::{Isometry3, Point3, Real, Vector3};
use crate::query::gjk;
use crate::shape::{Cuboid, Shape, SupportMap};

/// Convex hull of two boxes, grown by a margin: a bound on a swept LSS.
struct SweptLss {
    boxes: [Aabb; 2],
    margin: Real,
}

impl SupportMap for SweptLss {
    fn core_support(&self, d: &Vector3) -> Point3 {
        let corner = |b: &Aabb| {
            Point3::new(
                if d.x >= 0.0 { b.maxs.x } else { b.mins.x },
                if d.y >= 0.0 { b.maxs.y } else { b.mins.y },
                if d.z >= 0.0 { b.maxs.z } else { b.mins.z },
            )
        };
        let (p, q) = (corner(&self.boxes[0]), corner(&self.boxes[1]));
        if p.coords.dot(d) >= q.coords.dot(d) { p } else { q }
    }

    fn margin(&self) -> Real {
        self.margin
    }
}

/// The LSS of every element, in its body's frame (around the element's box there).
pub fn element_lss(world: &CollisionWorld) -> Vec<Lss> {
    world.elements.iter().map(|e| Lss::around_obb(&e.body_obb)).collect()
}

/// Slack on every separation proof: GJK's rounding is far below it.
fn slack(scale: Real) -> Real {
    1e-9 * (1.0 + scale)
}

fn swept_lss(lss: &Lss, link: &LinkEnclosure) -> SweptLss {
    let boxes = [link.pose.transform_point(&lss.a).to_aabb(), link.pose.transform_point(&lss.b).to_aabb()];
    let scale = boxes[0].maxs.coords.amax().max(boxes[0].mins.coords.abs().amax());
    SweptLss { boxes, margin: lss.radius + slack(scale) }
}

/// The root box of a mesh as a placed cuboid.
fn obb_as_cuboid(obb: &Obb, pose: &Isometry3) -> (Cuboid, Isometry3) {
    // Grown a hair: the frame's quaternion rounds the axes by an ulp or so.
    (Cuboid { half_extents: obb.half_extents.add_scalar(1e-12 * (1.0 + obb.half_extents.amax())) }, pose * obb.frame())
}

/// Whether the pair may touch over the interval the enclosures hold.
pub fn may_touch(world: &CollisionWorld, lss: &[Lss], links: &[LinkEnclosure], a: usize, b: usize) -> bool {
    let ea = &world.elements[a];
    let Body::Link(la) = ea.body else { return true };
    let swept_a = swept_lss(&lss[a], &links[la]);
    let eb = &world.elements[b];
    match eb.body {
        Body::Link(lb) => {
            let swept_b = swept_lss(&lss[b], &links[lb]);
            gjk::may_intersect(&swept_a, &Isometry3::identity(), &swept_b, &Isometry3::identity())
        }
        Body::Obstacle(_) => match &eb.shape {
            Shape::TriMesh(_) | Shape::VoxelMap(_) => {
                let (cuboid, pose) = obb_as_cuboid(&eb.local_obb, &eb.origin);
                gjk::may_intersect(&swept_a, &Isometry3::identity(), &cuboid, &pose)
            }
            convex => match convex.as_support_map() {
                Some(support) => gjk::may_intersect(&swept_a, &Isometry3::identity(), support, &eb.origin),
                None => true,
            },
        },
    }
}

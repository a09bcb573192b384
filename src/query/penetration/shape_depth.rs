//! The translational depth of any two element shapes (meshes too): where both are
//! convex, [`penetration_depth`] of the two; where a mesh is involved, the largest depth
//! over its triangles that meet the other shape (as coal measures a mesh's
//! penetration), descending the OBB tree only where its boxes meet the other's box, and
//! giving EPA only the triangles whose [`overlap_bound`] can beat the deepest found; where
//! a voxel map is involved, the largest depth over its cubes that meet the other shape
//! ([`super::voxel_map_depth`]). Where the depth alone is asked for (an event's deepest
//! instant, [`deepest_depth_above`]), two polytope features (a triangle against a box
//! or another triangle) are measured in closed form instead of by EPA.
use super::overlap_bound::{Part, face_overlap_bound, overlap_bound, polytope_depth};
use super::voxel_map_depth::voxel_map_penetration;
use super::{Penetration, penetration_depth};
use crate::bounding_volume::Obb;
use crate::math::{Isometry3, Real, Triangle};
use crate::partitioning::NodeContent;
use crate::shape::{Shape, SupportMap, TriMesh, TriangleShape};

/// The depth of two placed shapes; `None` when they do not intersect.
pub fn shape_penetration(a: &Shape, pose_a: &Isometry3, b: &Shape, pose_b: &Isometry3) -> Option<Penetration> {
    match (a, b) {
        (Shape::VoxelMap(m), other) => voxel_map_penetration(m, pose_a, other, pose_b, true),
        (other, Shape::VoxelMap(m)) => voxel_map_penetration(m, pose_b, other, pose_a, false),
        _ => deepest_features(a, pose_a, b, pose_b).map(|(p, _)| p),
    }
}

/// Where a depth between two shapes comes from: the triangle of each mesh whose depth
/// it is (`None` for a convex shape, which counts whole).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DepthFeatures {
    pub a: Option<u32>,
    pub b: Option<u32>,
}

/// The depth of two placed shapes (meshes and convex shapes; not voxel maps, `None`)
/// and the triangles it comes from; `None` when they do not intersect. The triangles (or
/// triangle pairs) whose boxes meet the other shape are ordered by their
/// [`face_overlap_bound`]s and measured while one can beat the deepest found; the
/// [`overlap_bound`] of one that can decides whether it goes to EPA.
pub fn deepest_features(a: &Shape, pose_a: &Isometry3, b: &Shape, pose_b: &Isometry3) -> Option<(Penetration, DepthFeatures)> {
    deepest_features_seeded(a, pose_a, b, pose_b, None)
}

/// [`deepest_features`], where `seed` names features that may be the deepest (those
/// deepest at a nearby instant): measured first, their depth is where the trees' walk
/// starts, and it skips the boxes whose overlap on their face axes cannot beat it
/// ([`Obb::face_overlap_placed`]). The same depth as without a seed.
pub fn deepest_features_seeded(
    a: &Shape,
    pose_a: &Isometry3,
    b: &Shape,
    pose_b: &Isometry3,
    seed: Option<DepthFeatures>,
) -> Option<(Penetration, DepthFeatures)> {
    deepest::<WithDirection>(a, pose_a, b, pose_b, seed, 0.0)
}

/// [`deepest_features_seeded`]'s depth alone, without its direction and points: where
/// both features are polytopes (triangles, boxes), their [`polytope_depth`] (the
/// separating-axis test's least overlap, which is their depth) instead of EPA. For the
/// instants of a contact event, which samples and refines the depth alone; told exactly
/// only where it is above `above` (0 for always), and elsewhere as a depth of some
/// features that is at most `above` (the seed's or another candidate's), or `None`
/// (also where the seed's features meet at depth 0): a sample that
/// needs only what beats a depth found elsewhere walks only the boxes whose overlap
/// exceeds that depth, a fraction of the walk.
pub fn deepest_depth_above(
    a: &Shape,
    pose_a: &Isometry3,
    b: &Shape,
    pose_b: &Isometry3,
    seed: Option<DepthFeatures>,
    above: Real,
) -> Option<(Real, DepthFeatures)> {
    deepest::<DepthAlone>(a, pose_a, b, pose_b, seed, above)
}

/// What a search for the deepest features measures of a pair of convex features: each
/// given as a support map and its pose, and as a [`Part`] in the world.
trait Measure {
    type Found: Copy;
    /// Whether two polytopes are measured by their [`polytope_depth`], the very number
    /// [`overlap_bound`] raises: then the bound is not worth taking before the measure.
    const POLYTOPES_IN_CLOSED_FORM: bool;
    fn depth(found: &Self::Found) -> Real;
    fn measure(a: (&dyn SupportMap, &Isometry3, &Part), b: (&dyn SupportMap, &Isometry3, &Part)) -> Option<Self::Found>;
}

/// The depth, its direction and points: EPA ([`penetration_depth`]).
struct WithDirection;

impl Measure for WithDirection {
    type Found = Penetration;
    const POLYTOPES_IN_CLOSED_FORM: bool = false;
    fn depth(found: &Penetration) -> Real {
        found.depth
    }
    fn measure((sa, pose_a, _): (&dyn SupportMap, &Isometry3, &Part), (sb, pose_b, _): (&dyn SupportMap, &Isometry3, &Part)) -> Option<Penetration> {
        penetration_depth(sa, pose_a, sb, pose_b)
    }
}

/// The depth alone: of two polytopes in closed form, else EPA's.
struct DepthAlone;

impl Measure for DepthAlone {
    type Found = Real;
    const POLYTOPES_IN_CLOSED_FORM: bool = true;
    fn depth(found: &Real) -> Real {
        *found
    }
    fn measure((sa, pose_a, part_a): (&dyn SupportMap, &Isometry3, &Part), (sb, pose_b, part_b): (&dyn SupportMap, &Isometry3, &Part)) -> Option<Real> {
        if part_a.is_polytope() && part_b.is_polytope() {
            let depth = polytope_depth(part_a, part_b);
            return (depth >= 0.0).then_some(depth);
        }
        penetration_depth(sa, pose_a, sb, pose_b).map(|p| p.depth)
    }
}

/// The deepest features of `a` and `b` (from `seed`'s, if given), told exactly where
/// their depth is above `above` (0 for always): the walks and the candidates stop at the
/// larger of the seed's depth and `above`.
fn deepest<M: Measure>(
    a: &Shape,
    pose_a: &Isometry3,
    b: &Shape,
    pose_b: &Isometry3,
    seed: Option<DepthFeatures>,
    above: Real,
) -> Option<(M::Found, DepthFeatures)> {
    let features = |a, b| DepthFeatures { a, b };
    // The seed's depth (where it is one), with the features it names.
    let seeded = || seed.and_then(|f| Some((features_measured::<M>(a, pose_a, b, pose_b, f).filter(|p| M::depth(p) > 0.0)?, f)));
    match (a, b) {
        (Shape::VoxelMap(_), _) | (_, Shape::VoxelMap(_)) => None,
        (Shape::TriMesh(ma), Shape::TriMesh(mb)) => {
            let seeded = seeded().and_then(|(p, f)| Some((p, (f.a?, f.b?))));
            let pairs = triangle_pairs_meeting(ma, pose_a, mb, pose_b, found_depth::<M, _>(&seeded).max(above));
            // Each triangle placed in the world once, however many pairs it is in.
            let (placed_a, placed_b) =
                (PlacedTriangles::new(ma, pose_a, pairs.iter().map(|p| p.0)), PlacedTriangles::new(mb, pose_b, pairs.iter().map(|p| p.1)));
            let candidates = pairs.into_iter().map(|(ta, tb)| (face_overlap_bound(placed_a.get(ta), placed_b.get(tb)), (ta, tb))).collect();
            let bound = |(ta, tb): (u32, u32)| bound_before::<M>(placed_a.get(ta), placed_b.get(tb));
            let depth = |(ta, tb): (u32, u32)| {
                let (tri_a, tri_b) = (ma.triangle(ta), mb.triangle(tb));
                M::measure((&TriangleShape(&tri_a), pose_a, placed_a.get(ta)), (&TriangleShape(&tri_b), pose_b, placed_b.get(tb)))
            };
            deepest_by_bound::<M, _>(candidates, bound, depth, seeded, above).map(|(p, (ta, tb))| (p, features(Some(ta), Some(tb))))
        }
        (Shape::TriMesh(m), convex) => {
            let (sb, part_b) = (convex.as_support_map()?, Part::convex(convex, pose_b)?);
            let seeded = seeded().and_then(|(p, f)| Some((p, f.a?)));
            let candidates = triangles_meeting(m, pose_a, &convex.local_obb(), pose_b, found_depth::<M, _>(&seeded).max(above))
                .into_iter()
                .map(|t| (face_overlap_bound(&placed_triangle(m, pose_a, t), &part_b), t))
                .collect();
            let bound = |t: u32| bound_before::<M>(&placed_triangle(m, pose_a, t), &part_b);
            let depth = |t: u32| M::measure((&TriangleShape(&m.triangle(t)), pose_a, &placed_triangle(m, pose_a, t)), (sb, pose_b, &part_b));
            deepest_by_bound::<M, _>(candidates, bound, depth, seeded, above).map(|(p, t)| (p, features(Some(t), None)))
        }
        (convex, Shape::TriMesh(m)) => {
            let (sa, part_a) = (convex.as_support_map()?, Part::convex(convex, pose_a)?);
            let seeded = seeded().and_then(|(p, f)| Some((p, f.b?)));
            let candidates = triangles_meeting(m, pose_b, &convex.local_obb(), pose_a, found_depth::<M, _>(&seeded).max(above))
                .into_iter()
                .map(|t| (face_overlap_bound(&part_a, &placed_triangle(m, pose_b, t)), t))
                .collect();
            let bound = |t: u32| bound_before::<M>(&part_a, &placed_triangle(m, pose_b, t));
            let depth = |t: u32| M::measure((sa, pose_a, &part_a), (&TriangleShape(&m.triangle(t)), pose_b, &placed_triangle(m, pose_b, t)));
            deepest_by_bound::<M, _>(candidates, bound, depth, seeded, above).map(|(p, t)| (p, features(None, Some(t))))
        }
        (ca, cb) => {
            let found = M::measure((ca.as_support_map()?, pose_a, &Part::convex(ca, pose_a)?), (cb.as_support_map()?, pose_b, &Part::convex(cb, pose_b)?))?;
            Some((found, features(None, None)))
        }
    }
}

/// Triangle `t` of a mesh placed by `pose`.
fn placed_triangle(mesh: &TriMesh, pose: &Isometry3, t: u32) -> Part<'static> {
    Part::Triangle(mesh.triangle(t).map(|p| pose * p))
}

/// Some triangles of a mesh placed in the world, found by their index (sorted: a
/// binary search is cheaper than hashing for the few hundred a depth meets).
struct PlacedTriangles {
    ids: Vec<u32>,
    parts: Vec<Part<'static>>,
}

impl PlacedTriangles {
    fn new(mesh: &TriMesh, pose: &Isometry3, ids: impl Iterator<Item = u32>) -> Self {
        let mut ids: Vec<u32> = ids.collect();
        ids.sort_unstable();
        ids.dedup();
        let parts = ids.iter().map(|&t| placed_triangle(mesh, pose, t)).collect();
        Self { ids, parts }
    }

    fn get(&self, t: u32) -> &Part<'static> {
        &self.parts[self.ids.binary_search(&t).expect("a triangle of the pairs placed")]
    }
}

/// The [`overlap_bound`] of two candidate features, which spares the measure of those
/// that cannot be the deepest; infinite (no bound taken) where the measure would compute
/// the same overlaps ([`Measure::POLYTOPES_IN_CLOSED_FORM`]): a candidate whose bound
/// is not above the deepest found has a depth below it, which the measure would not
/// take either.
fn bound_before<M: Measure>(a: &Part, b: &Part) -> Real {
    match M::POLYTOPES_IN_CLOSED_FORM && a.is_polytope() && b.is_polytope() {
        true => Real::INFINITY,
        false => overlap_bound(a, b),
    }
}

/// The depth of what was found, 0 for nothing.
fn found_depth<M: Measure, T>(found: &Option<(M::Found, T)>) -> Real {
    found.as_ref().map_or(0.0, |f| M::depth(&f.0))
}

/// The deepest of the candidates (and of `seed`, measured before), each with a cheap
/// upper bound of its depth and what names it: in the order of those bounds, while one
/// is above the deepest found (and `above`), a candidate whose tighter `bound` is above
/// them too is measured by `depth`.
fn deepest_by_bound<M: Measure, T: Copy>(
    mut candidates: Vec<(Real, T)>,
    bound: impl Fn(T) -> Real,
    mut depth: impl FnMut(T) -> Option<M::Found>,
    seed: Option<(M::Found, T)>,
    above: Real,
) -> Option<(M::Found, T)> {
    candidates.sort_by(|x, y| y.0.total_cmp(&x.0));
    let mut deepest: Option<(M::Found, T)> = seed;
    for (cheap, item) in candidates {
        if cheap <= found_depth::<M, _>(&deepest).max(above) {
            break;
        }
        if bound(item) <= found_depth::<M, _>(&deepest).max(above) {
            continue;
        }
        if let Some(p) = depth(item)
            && deepest.as_ref().is_none_or(|d| M::depth(&p) > M::depth(&d.0))
        {
            deepest = Some((p, item));
        }
    }
    deepest
}

/// The depth of the given features alone: the named triangle of each mesh, a convex
/// shape whole (at most the shapes' depth, and equal to it where the features are the
/// deepest); `None` when they do not intersect, or the features do not fit the shapes.
pub fn features_penetration(a: &Shape, pose_a: &Isometry3, b: &Shape, pose_b: &Isometry3, features: DepthFeatures) -> Option<Penetration> {
    features_measured::<WithDirection>(a, pose_a, b, pose_b, features)
}

/// [`features_penetration`]'s depth alone (of two polytopes in closed form, as
/// [`deepest_depth_above`] measures it).
pub fn features_depth(a: &Shape, pose_a: &Isometry3, b: &Shape, pose_b: &Isometry3, features: DepthFeatures) -> Option<Real> {
    features_measured::<DepthAlone>(a, pose_a, b, pose_b, features)
}

fn features_measured<M: Measure>(a: &Shape, pose_a: &Isometry3, b: &Shape, pose_b: &Isometry3, features: DepthFeatures) -> Option<M::Found> {
    let triangle = |shape: &Shape, t: Option<u32>| match (shape, t) {
        (Shape::TriMesh(m), Some(t)) if (t as usize) < m.triangle_indices().len() => Some(m.triangle(t)),
        _ => None,
    };
    let placed = |t: &Triangle, pose: &Isometry3| Part::Triangle(t.map(|p| pose * p));
    match (triangle(a, features.a), triangle(b, features.b)) {
        (Some(ta), Some(tb)) => M::measure((&TriangleShape(&ta), pose_a, &placed(&ta, pose_a)), (&TriangleShape(&tb), pose_b, &placed(&tb, pose_b))),
        (Some(ta), None) if features.b.is_none() => {
            M::measure((&TriangleShape(&ta), pose_a, &placed(&ta, pose_a)), (b.as_support_map()?, pose_b, &Part::convex(b, pose_b)?))
        }
        (None, Some(tb)) if features.a.is_none() => {
            M::measure((a.as_support_map()?, pose_a, &Part::convex(a, pose_a)?), (&TriangleShape(&tb), pose_b, &placed(&tb, pose_b)))
        }
        (None, None) if features == (DepthFeatures { a: None, b: None }) => {
            M::measure((a.as_support_map()?, pose_a, &Part::convex(a, pose_a)?), (b.as_support_map()?, pose_b, &Part::convex(b, pose_b)?))
        }
        _ => None,
    }
}

/// The mesh's triangles whose tree boxes meet `other` (a box in the frame that
/// `pose_other` places) by more than `above` on their face axes (so that what they
/// hold may be deeper than that).
fn triangles_meeting(mesh: &TriMesh, pose: &Isometry3, other: &Obb, pose_other: &Isometry3, above: Real) -> Vec<u32> {
    let other_in_mesh = pose.inv_mul(pose_other);
    let other = other.placed_by(&other_in_mesh.rotation.to_rotation_matrix().into_inner(), &other_in_mesh.translation.vector);
    let nodes = mesh.obb_tree().nodes();
    let mut found = Vec::new();
    let mut stack = if nodes.is_empty() { Vec::new() } else { vec![0u32] };
    while let Some(i) = stack.pop() {
        let node = &nodes[i as usize];
        if !node.obb.face_overlap_exceeds(&other, above) {
            continue;
        }
        match node.content {
            NodeContent::Children(l, r) => stack.extend([l, r]),
            NodeContent::Triangle(t) => found.push(t),
        }
    }
    found
}

/// The triangle pairs of two meshes whose tree boxes meet by more than `above` on their
/// face axes: both trees descended together, the larger box of a pair opened first.
fn triangle_pairs_meeting(ma: &TriMesh, pose_a: &Isometry3, mb: &TriMesh, pose_b: &Isometry3, above: Real) -> Vec<(u32, u32)> {
    let b_in_a = pose_a.inv_mul(pose_b);
    let (rotation, translation) = (b_in_a.rotation.to_rotation_matrix().into_inner(), b_in_a.translation.vector);
    let (nodes_a, nodes_b) = (ma.obb_tree().nodes(), mb.obb_tree().nodes());
    let mut found = Vec::new();
    let mut stack = if nodes_a.is_empty() || nodes_b.is_empty() { Vec::new() } else { vec![(0u32, 0u32)] };
    while let Some((i, j)) = stack.pop() {
        let (na, nb) = (&nodes_a[i as usize], &nodes_b[j as usize]);
        if !na.obb.face_overlap_exceeds(&nb.obb.placed_by(&rotation, &translation), above) {
            continue;
        }
        match (na.content, nb.content) {
            (NodeContent::Triangle(ta), NodeContent::Triangle(tb)) => found.push((ta, tb)),
            (NodeContent::Children(l, r), NodeContent::Triangle(_)) => stack.extend([(l, j), (r, j)]),
            (NodeContent::Triangle(_), NodeContent::Children(l, r)) => stack.extend([(i, l), (i, r)]),
            (NodeContent::Children(la, ra), NodeContent::Children(lb, rb)) => match na.obb.half_extents.max() >= nb.obb.half_extents.max() {
                true => stack.extend([(la, j), (ra, j)]),
                false => stack.extend([(i, lb), (i, rb)]),
            },
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::{Point3, Triangle, Vector3, test_uniform};
    use crate::shape::{Ball, Cuboid, Cylinder, SupportMap};
    use nalgebra::{Translation3, UnitQuaternion};
    use std::sync::Arc;

    /// A lumpy closed mesh: an octahedron subdivided `levels` times, its corners pushed
    /// out to random radii about `radius`.
    fn lumpy_mesh(levels: usize, radius: Real, u: &mut dyn FnMut() -> Real) -> TriMesh {
        let mut vertices: Vec<Point3> = [Vector3::x(), -Vector3::x(), Vector3::y(), -Vector3::y(), Vector3::z(), -Vector3::z()].map(Point3::from).to_vec();
        let mut triangles: Vec<[u32; 3]> = vec![[0, 2, 4], [2, 1, 4], [1, 3, 4], [3, 0, 4], [2, 0, 5], [1, 2, 5], [3, 1, 5], [0, 3, 5]];
        for _ in 0..levels {
            let mut middles = std::collections::HashMap::new();
            let mut middle = |i: u32, j: u32, vertices: &mut Vec<Point3>| {
                *middles.entry((i.min(j), i.max(j))).or_insert_with(|| {
                    vertices.push(Point3::from((vertices[i as usize].coords + vertices[j as usize].coords).normalize()));
                    vertices.len() as u32 - 1
                })
            };
            triangles = triangles
                .iter()
                .flat_map(|&[a, b, c]| {
                    let (ab, bc, ca) = (middle(a, b, &mut vertices), middle(b, c, &mut vertices), middle(c, a, &mut vertices));
                    [[a, ab, ca], [ab, b, bc], [ca, bc, c], [ab, bc, ca]]
                })
                .collect();
        }
        let vertices = vertices.iter().map(|p| Point3::from(p.coords * radius * (0.8 + 0.4 * u()))).collect();
        TriMesh::new(vertices, triangles).expect("a valid mesh")
    }

    fn pose(u: &mut dyn FnMut() -> Real, reach: Real) -> Isometry3 {
        let mut v = |s: Real| Vector3::new(s * (u() - 0.5), s * (u() - 0.5), s * (u() - 0.5));
        Isometry3::from_parts(Translation3::from(v(reach)), UnitQuaternion::from_scaled_axis(v(6.0)))
    }

    /// The EPA depth of every triangle (or triangle pair) that meets, and what names it.
    fn every_triangle(a: &Shape, pose_a: &Isometry3, b: &Shape, pose_b: &Isometry3) -> Vec<(Real, DepthFeatures)> {
        let parts = |shape: &Shape| -> Vec<(Option<u32>, Option<Triangle>)> {
            match shape {
                Shape::TriMesh(m) => (0..m.triangle_indices().len() as u32).map(|t| (Some(t), Some(m.triangle(t)))).collect(),
                _ => vec![(None, None)],
            }
        };
        let mut found = Vec::new();
        for (ia, ta) in parts(a) {
            for (ib, tb) in parts(b) {
                let (wa, wb) = (ta.as_ref().map(TriangleShape), tb.as_ref().map(TriangleShape));
                let sa: &dyn SupportMap = match &wa {
                    Some(w) => w,
                    None => a.as_support_map().unwrap(),
                };
                let sb: &dyn SupportMap = match &wb {
                    Some(w) => w,
                    None => b.as_support_map().unwrap(),
                };
                if let Some(p) = penetration_depth(sa, pose_a, sb, pose_b) {
                    found.push((p.depth, DepthFeatures { a: ia, b: ib }));
                }
            }
        }
        found
    }

    /// Lumpy meshes against boxes, balls, cylinders and other lumpy meshes, overlapping
    /// from grazing to deep: the search, which skips what its bounds rule out, finds the
    /// depth of EPA on every triangle (pair), and names a triangle (pair) that has it;
    /// also seeded with a shallower triangle (pair), the middle one in depth, or the
    /// shallowest, whose depth the trees' walk then skips boxes against.
    #[test]
    fn the_deepest_features_are_the_deepest_of_every_triangle() {
        let mut u = test_uniform(0x5eed_deeb);
        let (mut compared, mut meshes_both, mut seeded_shallower, mut told_below) = (0, 0, 0, 0);
        for case in 0..240 {
            let mesh = Shape::TriMesh(Arc::new(lumpy_mesh(1 + case % 2, 0.1, &mut u)));
            let other = match case % 4 {
                0 => Shape::Cuboid(Cuboid { half_extents: Vector3::new(0.03 + 0.1 * u(), 0.03 + 0.1 * u(), 0.03 + 0.1 * u()) }),
                1 => Shape::Ball(Ball { radius: 0.03 + 0.1 * u() }),
                2 => Shape::Cylinder(Cylinder { half_height: 0.03 + 0.1 * u(), radius: 0.03 + 0.1 * u() }),
                _ => Shape::TriMesh(Arc::new(lumpy_mesh(1, 0.08, &mut u))),
            };
            let (pose_mesh, pose_other) = (pose(&mut u, 0.2), pose(&mut u, 0.2));
            for swapped in [false, true] {
                let (a, pa, b, pb) = if swapped { (&other, &pose_other, &mesh, &pose_mesh) } else { (&mesh, &pose_mesh, &other, &pose_other) };
                let mut every = every_triangle(a, pa, b, pb);
                every.sort_by(|x, y| x.0.total_cmp(&y.0));
                let deepest = every.last().map(|d| d.0);
                let seeds = [None, every.get(every.len() / 2).map(|d| d.1), every.first().map(|d| d.1)];
                for seed in seeds {
                    match (deepest, deepest_features_seeded(a, pa, b, pb, seed)) {
                        (None, None) => {}
                        (Some(depth), Some((p, features))) => {
                            assert!(
                                (p.depth - depth).abs() <= 1e-12 * (1.0 + depth),
                                "case {case}, seed {seed:?}: {} against {depth} on every triangle",
                                p.depth
                            );
                            let named = features_penetration(a, pa, b, pb, features).map(|p| p.depth);
                            assert_eq!(named, Some(p.depth), "case {case}: the named triangles");
                            // The depth alone (in closed form where both are polytopes).
                            let (alone, alone_features) = deepest_depth_above(a, pa, b, pb, seed, 0.0).expect("a depth alone as well");
                            assert!((alone - depth).abs() <= 1e-9 * (1.0 + depth), "case {case}, seed {seed:?}: the depth alone {alone} against {depth}");
                            assert_eq!(features_depth(a, pa, b, pb, alone_features), Some(alone), "case {case}: the depth alone's triangles");
                            // Told only above a depth: exact above it, and below it an
                            // attained depth that is not above it.
                            for above in [0.5 * depth, 0.99 * depth, 1.01 * depth, 2.0 * depth] {
                                match deepest_depth_above(a, pa, b, pb, seed, above) {
                                    Some((told, told_features)) if depth > above => {
                                        assert!((told - depth).abs() <= 1e-9 * (1.0 + depth), "case {case}, above {above}: {told} against {depth}");
                                        assert_eq!(features_depth(a, pa, b, pb, told_features), Some(told), "case {case}: the triangles told");
                                    }
                                    None if depth > above => panic!("case {case}, above {above}: nothing told of the depth {depth}"),
                                    Some((told, told_features)) => {
                                        assert!(told <= above, "case {case}, above {above}: {told} told where the depth {depth} is not above");
                                        assert_eq!(features_depth(a, pa, b, pb, told_features), Some(told), "case {case}: the triangles told");
                                        told_below += 1;
                                    }
                                    None => told_below += 1,
                                }
                            }
                            compared += 1;
                            meshes_both += matches!(other, Shape::TriMesh(_)) as usize;
                            let seed_depth = seed.and_then(|f| features_penetration(a, pa, b, pb, f)).map_or(0.0, |p| p.depth);
                            seeded_shallower += (seed_depth > 0.0 && seed_depth < 0.9 * depth) as usize;
                        }
                        (expected, found) => panic!("case {case}, seed {seed:?}: {expected:?} on every triangle, {:?} found", found.map(|f| f.0.depth)),
                    }
                }
            }
        }
        assert!(
            compared > 450 && meshes_both > 120 && seeded_shallower > 100 && told_below > 900,
            "{compared} depths compared, {meshes_both} mesh against mesh, {seeded_shallower} seeded with a shallower one, {told_below} told below"
        );
    }
}

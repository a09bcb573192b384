//! The exact minimum translational distance of two convex polytopes from the facets of
//! their Minkowski difference: Keerthi & Sridharan's `compute_I` (section 3) in space. The
//! difference `A − B` is the hull of the m·n vertex differences; the MTD is the least
//! distance from the origin to the plane of one of its facets. Keerthi & Sridharan notes that this
//! is expensive in three dimensions (Buckley and Leifer's O((m+n)² log(m+n))); here the
//! hull of all m·n differences costs O(mn log mn), fine for small polytopes (the
//! integration uses it up to m·n of a few thousand) and the reference EPA is tested
//! against.
//!
//! The hull comes from `parry3d_f64::transformation::try_convex_hull`, after an affine
//! whitening of the points (which keeps the hull's combinatorics and spares parry's
//! flatness test, which calls a point set flat below a relative 1e-7 of variance).
//! Each facet only proposes a direction `n`; its value is the support function
//! `h(n) = max_a a·n − min_b b·n` evaluated on the vertices, so a facet whose normal is
//! poorly rounded (a sliver) can only overestimate, and the minimum over the true
//! facets is exact.
//!
//! `query::closest_features::hull` whitens and calls parry too, for Lin–Canny's
//! polyhedra, and is kept apart on purpose: here the whitened axes are ordered by
//! spread, the last of equal differences names the vertex pair of a corner, and the raw
//! triangles are the facets; there coplanar triangles are merged into faces and the
//! polyhedron is checked, with other flatness tolerances (see that module). Sharing one
//! would change the hulls parry returns, and so the witnesses and depths, by rounding.
use super::Penetration;
use super::translational::penetration_depth;
use super::vertex_cloud::VertexCloud;
use crate::math::{Isometry3, Matrix3, Point3, Real, Vector3};
use crate::query::gjk;
use std::collections::HashMap;

/// Above this many vertex pairs the hull is not built and EPA answers instead.
pub const MAX_PAIRS: usize = 1 << 18;

/// The exact MTD of two convex polytopes given by their vertices (body frames; any
/// points, their hull is the polytope), with [`Penetration`]'s convention: translating B
/// by `depth * normal` separates them. `None` when they do not intersect
/// ([`gjk::intersects`]) or the input is empty or not finite. Flat differences (both
/// polytopes flat and coplanar, or lower-dimensional) have depth 0 to rounding, along
/// the normal of their plane. Above [`MAX_PAIRS`] vertex pairs, or should the hull fail,
/// the result is EPA's ([`penetration_depth`]).
pub fn polytope_penetration_exact(a: &[Point3], pose_a: &Isometry3, b: &[Point3], pose_b: &Isometry3) -> Option<Penetration> {
    if a.is_empty() || b.is_empty() {
        return None;
    }
    let wa: Vec<Point3> = a.iter().map(|p| pose_a * p).collect();
    let wb: Vec<Point3> = b.iter().map(|p| pose_b * p).collect();
    if !wa.iter().chain(&wb).all(|p| p.iter().all(|x| x.is_finite())) {
        return None;
    }
    let (ca, cb) = (VertexCloud(a), VertexCloud(b));
    if !gjk::intersects(&ca, pose_a, &cb, pose_b) {
        return None;
    }
    if a.len() * b.len() > MAX_PAIRS {
        return penetration_depth(&ca, pose_a, &cb, pose_b);
    }
    let placed = Placed { a: ca, pose_a, b: cb, pose_b, wa, wb };
    let diffs: Vec<Vector3> = placed.wa.iter().flat_map(|p| placed.wb.iter().map(move |q| p - q)).collect();
    let spread = Spread::of(&diffs);
    if !spread.solid() {
        return placed.flat(&spread);
    }
    let Some(facets) = placed.hull_facets(&diffs, &spread) else {
        return penetration_depth(&ca, pose_a, &cb, pose_b);
    };
    let &(_, normal, h) = facets.iter().min_by(|x, y| x.2.total_cmp(&y.2))?;
    let depth = h.max(0.0);
    let (mut point_a, mut point_b) = placed.witnesses(&diffs, &facets, &normal, h);
    let error = (point_a - point_b - normal * depth) * 0.5;
    point_a -= error;
    point_b += error;
    Some(Penetration { depth, normal, point_a, point_b })
}

/// A facet of the difference's hull: the vertex pairs of its corners (index `i` is
/// vertex `i / nb` of A less vertex `i % nb` of B), its outward unit normal, and the
/// support value along it.
type Facet = ([usize; 3], Vector3, Real);

/// The two polytopes as placed: their vertices in their own frames with the poses, and
/// in the world.
struct Placed<'p> {
    a: VertexCloud<'p>,
    pose_a: &'p Isometry3,
    b: VertexCloud<'p>,
    pose_b: &'p Isometry3,
    wa: Vec<Point3>,
    wb: Vec<Point3>,
}

/// The principal axes of the vertex differences: their mean, and the covariance's
/// eigenvalues and unit eigenvectors from the smallest spread to the largest.
struct Spread {
    mean: Vector3,
    values: [Real; 3],
    axes: [Vector3; 3],
}

impl Spread {
    fn of(diffs: &[Vector3]) -> Self {
        let count = diffs.len() as Real;
        let mean = diffs.iter().fold(Vector3::zeros(), |s, d| s + d) / count;
        let cov = diffs.iter().fold(Matrix3::zeros(), |s, d| s + (d - mean) * (d - mean).transpose()) / count;
        let eigen = cov.symmetric_eigen();
        let (mut order, values) = ([0usize, 1, 2], eigen.eigenvalues);
        order.sort_by(|&i, &j| values[i].total_cmp(&values[j]));
        Self { mean, values: order.map(|i| values[i]), axes: order.map(|i| eigen.eigenvectors.column(i).into_owned()) }
    }

    /// Whether the differences span a solid: a relative thickness of 1e-10 or more.
    fn solid(&self) -> bool {
        let (smallest, largest) = (self.values[0], self.values[2]);
        smallest > 1e-20 * largest && largest > 0.0
    }
}

impl Placed<'_> {
    /// The support function of the difference along `n`: `max_a a·n − min_b b·n`.
    fn height(&self, n: &Vector3) -> Real {
        self.wa.iter().map(|p| p.coords.dot(n)).fold(Real::NEG_INFINITY, Real::max) - self.wb.iter().map(|q| q.coords.dot(n)).fold(Real::INFINITY, Real::min)
    }

    /// A flat difference: the depth is along the normal of the plane (or of the line)
    /// and is the thickness at most.
    fn flat(&self, spread: &Spread) -> Option<Penetration> {
        let mut normals = vec![spread.axes[0], -spread.axes[0]];
        // Not above (NaN counts as flat).
        if spread.values[1].partial_cmp(&(1e-20 * spread.values[2])) != Some(std::cmp::Ordering::Greater) {
            normals.extend([spread.axes[1], -spread.axes[1]]);
        }
        let (h, n) = normals.iter().map(|n| (self.height(n), *n)).min_by(|x, y| x.0.total_cmp(&y.0))?;
        let contact = gjk::closest_points(&self.a, self.pose_a, &self.b, self.pose_b);
        let mid = nalgebra::center(&contact.point_a, &contact.point_b);
        let depth = h.max(0.0);
        Some(Penetration { depth, normal: n, point_a: mid + n * (depth * 0.5), point_b: mid - n * (depth * 0.5) })
    }

    /// The facets of the hull of the differences, from parry on whitened copies keyed
    /// back to the pairs; `None` where parry fails (EPA answers instead).
    fn hull_facets(&self, diffs: &[Vector3], spread: &Spread) -> Option<Vec<Facet>> {
        let mean = spread.mean;
        let whiten = Matrix3::from_rows(&[0, 1, 2].map(|k| (spread.axes[k] / spread.values[k].sqrt()).transpose()));
        let white: Vec<parry3d_f64::math::Vector3> = diffs
            .iter()
            .map(|d| {
                let y = whiten * (d - mean);
                parry3d_f64::math::Vector3::new(y.x, y.y, y.z)
            })
            .collect();
        let key = |v: &parry3d_f64::math::Vector3| [v.x.to_bits(), v.y.to_bits(), v.z.to_bits()];
        let index: HashMap<[u64; 3], usize> = white.iter().enumerate().map(|(i, v)| (key(v), i)).collect();
        // parry's hull may panic on degenerate input (as closest_features::hull also guards);
        // the guard keeps its message off stderr.
        let hull = crate::panic_guard::guarded(|| parry3d_f64::transformation::try_convex_hull(&white));
        let Ok(Ok((hull_points, triangles))) = hull else {
            log::debug!("convex hull of {} differences failed; EPA instead", white.len());
            return None;
        };
        let corner_ids: Vec<usize> = hull_points.iter().map(|p| index.get(&key(p)).copied()).collect::<Option<_>>()?;
        // Each facet's outward unit normal and the support value along it.
        let facets = triangles
            .iter()
            .filter_map(|t| {
                let ids = t.map(|k| corner_ids[k as usize]);
                let n = facet_normal(&ids.map(|i| diffs[i]), &mean)?;
                Some((ids, n, self.height(&n)))
            })
            .collect();
        Some(facets)
    }

    /// Witnesses of the depth `h` along `normal`: the origin's projection in a facet of
    /// the same plane that holds it (the one it lies deepest inside), as the same
    /// combination of the facet's vertex pairs; else GJK's closest points.
    fn witnesses(&self, diffs: &[Vector3], facets: &[Facet], normal: &Vector3, h: Real) -> (Point3, Point3) {
        let (wa, wb) = (&self.wa, &self.wb);
        let nb = wb.len();
        let scale = wa.iter().chain(wb).map(|p| p.coords.norm()).fold(0.0, Real::max);
        let tolerance = 1e-12 * scale.max(Real::MIN_POSITIVE);
        let target = normal * h;
        let mut best: Option<(Real, [Real; 3], [usize; 3])> = None;
        for (ids, n, hf) in facets {
            if (hf - h).abs() > tolerance || n.dot(normal) < 1.0 - 1e-9 {
                continue;
            }
            let p = ids.map(|i| diffs[i]);
            let mut l = [0.0; 3];
            for (k, lk) in l.iter_mut().enumerate() {
                *lk = (p[(k + 1) % 3] - target).cross(&(p[(k + 2) % 3] - target)).dot(n);
            }
            let sum: Real = l.iter().sum();
            // The facet may wind either way (the hull was taken in whitened coordinates): the
            // ratios l/sum are the barycentric coordinates whatever the sign.
            if !(sum != 0.0 && sum.is_finite()) {
                continue;
            }
            let l = l.map(|x| x / sum);
            let worst = l.iter().copied().fold(Real::INFINITY, Real::min);
            if best.as_ref().is_none_or(|b| worst > b.0) {
                best = Some((worst, l, *ids));
            }
        }
        match best {
            Some((_, l, ids)) => {
                let l = l.map(|x| x.max(0.0));
                let sum: Real = l.iter().sum();
                let mut pa = Vector3::zeros();
                let mut pb = Vector3::zeros();
                for k in 0..3 {
                    pa += wa[ids[k] / nb].coords * (l[k] / sum);
                    pb += wb[ids[k] % nb].coords * (l[k] / sum);
                }
                (Point3::from(pa), Point3::from(pb))
            }
            None => {
                let contact = gjk::closest_points(&self.a, self.pose_a, &self.b, self.pose_b);
                (contact.point_a, contact.point_b)
            }
        }
    }
}

/// Unit normal of a facet turned away from `inside`; `None` when degenerate. Taken at
/// the corner opposite the longest edge.
fn facet_normal(p: &[Vector3; 3], inside: &Vector3) -> Option<Vector3> {
    let lens = [(p[1] - p[0]).norm_squared(), (p[2] - p[1]).norm_squared(), (p[0] - p[2]).norm_squared()];
    let corner = if lens[0] >= lens[1] && lens[0] >= lens[2] {
        2
    } else if lens[1] >= lens[2] {
        0
    } else {
        1
    };
    let c = p[corner];
    let n = (p[(corner + 1) % 3] - c).cross(&(p[(corner + 2) % 3] - c));
    let len = n.norm();
    if !(len > 0.0 && len.is_finite()) {
        return None;
    }
    let n = n / len;
    Some(if n.dot(&(c - inside)) < 0.0 { -n } else { n })
}

//! From a point cloud to the convex polygons of its hull (input of the winged-edge
//! structure of Lin 1993 ch. 2 "Representation").
//!
//! parry3d-f64 gives the hull as triangles. Coplanar triangles (within a tolerance) are
//! merged into convex polygons, points in the middle of an edge or of a face are
//! dropped, and the result is checked: closed and 2-manifold, Euler characteristic 2,
//! every vertex beneath every face plane. Anything else is an `Err`, never a panic.
//!
//! `query::penetration::minkowski_facets` also takes a hull from parry after whitening,
//! of the Minkowski difference's vertices, but it is not this one and does not share it:
//! it orders the whitened axes by spread (here they come in the eigensolver's order, so
//! parry sees other coordinates and may triangulate coplanar faces otherwise), keeps the
//! last of equal whitened points (it needs a vertex pair per corner for its witnesses;
//! here the first), takes any spread above 1e-20 of the largest as solid (here
//! `check_solid`'s 1e-9 of the size and every principal spread positive), lets a
//! panic in parry through (here it is an `Err`), and uses the triangles as they come,
//! each only proposing a direction (here coplanar ones become one face and the
//! polyhedron is checked). One helper for both would move both results by rounding.
use crate::math::{Point3, Real, Vector3};
use parry3d_f64::math::Vector as PVector;
use std::collections::HashMap;

/// Distance (relative to the cloud's size) within which hull triangles count as
/// coplanar and hull points as lying on an edge.
pub(super) const COPLANAR_TOL_REL: Real = 1e-12;
/// Smallest height of the fourth point above the plane of the first three (relative
/// to the cloud's size) for the cloud to count as solid.
const FLAT_TOL_REL: Real = 1e-9;
/// How far (relative) a hull vertex may stick out of a face plane before the hull
/// counts as not convex.
const CONVEXITY_TOL_REL: Real = 1e-9;

/// Why a point cloud has no convex polyhedron as its hull (or why building it failed).
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum HullError {
    #[error("a convex polyhedron needs at least 4 points, got {0}")]
    TooFewPoints(usize),
    #[error("a point has a non-finite coordinate")]
    NonFinite,
    #[error("all points coincide")]
    Coincident,
    #[error("the points are collinear")]
    Collinear,
    #[error("the points are coplanar (a flat hull has no interior)")]
    Flat,
    #[error("the points are coplanar (no spread in some direction)")]
    NoSpread,
    /// parry3d's hull failed, with its reason.
    #[error("convex hull failed: {0}")]
    Parry(String),
    #[error("convex hull failed (parry panicked)")]
    ParryPanicked,
    #[error("convex hull returned a point not in the input")]
    ForeignPoint,
    #[error("degenerate hull (fewer than 4 triangles)")]
    TooFewTriangles,
    #[error("the hull triangles are not a closed oriented surface")]
    OpenSurface,
    #[error("a merged hull face is not a simple polygon")]
    FaceNotSimple,
    #[error("a merged hull face has no boundary")]
    FaceWithoutBoundary,
    #[error("a merged hull face has a broken boundary")]
    FaceBrokenBoundary,
    #[error("a merged hull face has an open boundary")]
    FaceOpenBoundary,
    #[error("a merged hull face has several boundaries")]
    FaceSeveralBoundaries,
    #[error("a hull face degenerated to fewer than 3 corners")]
    FaceTooFewCorners,
    #[error("a hull face has zero area")]
    FaceZeroArea,
    #[error("the hull is not convex within tolerance (degenerate input)")]
    NotConvex,
    /// The winged-edge structure built from the polygons is not a polyhedron.
    #[error("a hull edge is used twice in the same direction")]
    EdgeUsedTwice,
    #[error("the hull is not closed")]
    NotClosed,
    #[error("the hull has Euler characteristic {0}, not 2")]
    EulerCharacteristic(i64),
    #[error("missing hull edge")]
    MissingEdge,
    #[error("a vertex's ring of faces does not close")]
    OpenVertexRing,
    #[error("degenerate hull (a Voronoi plane is undefined: coincident vertices?)")]
    VoronoiPlaneUndefined,
}

/// The hull as convex polygons: loops of vertex indices, counter-clockwise seen from
/// outside, each with its outward unit normal `n` and offset `d` (`n · x = d`).
pub(super) struct HullPolygons {
    pub vertices: Vec<Point3>,
    pub loops: Vec<Vec<u32>>,
    pub planes: Vec<(Vector3, Real)>,
    /// Size of the cloud (diagonal of its box), the unit of every tolerance.
    pub size: Real,
}

pub(super) fn hull_polygons(points: &[Point3]) -> Result<HullPolygons, HullError> {
    if points.len() < 4 {
        return Err(HullError::TooFewPoints(points.len()));
    }
    if points.iter().any(|p| !(p.x.is_finite() && p.y.is_finite() && p.z.is_finite())) {
        return Err(HullError::NonFinite);
    }
    let (mut lo, mut hi) = (points[0], points[0]);
    for p in points {
        lo = lo.inf(p);
        hi = hi.sup(p);
    }
    let size = (hi - lo).norm();
    if size.is_nan() || size <= 0.0 {
        return Err(HullError::Coincident);
    }
    check_solid(points, size)?;

    let (hv, tris) = parry_hull(points)?;
    let verts: Vec<Point3> = hv;
    let tris = oriented_triangles(&verts, tris)?;
    let tol = COPLANAR_TOL_REL * size;
    let mut loops = merge_coplanar(&verts, &tris, tol)?;
    drop_collinear(&verts, &mut loops, tol)?;

    // Re-index the vertices that remain corners.
    let mut remap = vec![u32::MAX; verts.len()];
    let mut vertices = Vec::new();
    for l in &mut loops {
        for v in l.iter_mut() {
            if remap[*v as usize] == u32::MAX {
                remap[*v as usize] = vertices.len() as u32;
                vertices.push(verts[*v as usize]);
            }
            *v = remap[*v as usize];
        }
    }
    let planes: Vec<(Vector3, Real)> = loops.iter().map(|l| newell_plane(&vertices, l)).collect::<Result<_, _>>()?;
    let convex_tol = CONVEXITY_TOL_REL * size;
    for (n, d) in &planes {
        if vertices.iter().any(|v| n.dot(&v.coords) > d + convex_tol) {
            return Err(HullError::NotConvex);
        }
    }
    Ok(HullPolygons { vertices, loops, planes, size })
}

/// parry's hull of the cloud after whitening it (an affine map that makes its
/// covariance the identity: hulls are affine-invariant, and parry takes clouds whose
/// smallest principal spread is below ~3e-4 of the largest for flat). parry returns
/// input points, so the corners map back to the original coordinates exactly.
fn parry_hull(points: &[Point3]) -> Result<(Vec<Point3>, Vec<[u32; 3]>), HullError> {
    let n = points.len() as Real;
    let c = points.iter().fold(Vector3::zeros(), |s, p| s + p.coords) / n;
    let cov = points.iter().fold(crate::math::Matrix3::zeros(), |s, p| s + (p.coords - c) * (p.coords - c).transpose()) / n;
    let eig = nalgebra::SymmetricEigen::new(cov);
    if !eig.eigenvalues.iter().all(|&l| l > 0.0) {
        return Err(HullError::NoSpread);
    }
    let w = crate::math::Matrix3::from_diagonal(&eig.eigenvalues.map(|l| 1.0 / l.sqrt())) * eig.eigenvectors.transpose();
    let white: Vec<PVector> = points
        .iter()
        .map(|p| {
            let x = w * (p.coords - c);
            PVector::new(x.x, x.y, x.z)
        })
        .collect();
    let key = |v: &PVector| [v.x.to_bits(), v.y.to_bits(), v.z.to_bits()];
    let index: HashMap<[u64; 3], usize> = white.iter().enumerate().rev().map(|(i, v)| (key(v), i)).collect();
    // parry's hull may panic on degenerate input; the guard keeps its message off stderr.
    let hull = crate::panic_guard::guarded(|| parry3d_f64::transformation::try_convex_hull(&white));
    let (hv, tris) = match hull {
        Ok(Ok(h)) => h,
        Ok(Err(e)) => return Err(HullError::Parry(format!("{e:?}"))),
        Err(_) => return Err(HullError::ParryPanicked),
    };
    let verts = hv.iter().map(|v| index.get(&key(v)).map(|&i| points[i]).ok_or(HullError::ForeignPoint)).collect::<Result<Vec<_>, _>>()?;
    Ok((verts, tris))
}

/// Err for clouds without four affinely independent points (flat, collinear).
fn check_solid(points: &[Point3], size: Real) -> Result<(), HullError> {
    let p0 = points[0];
    let far = |f: &dyn Fn(&Point3) -> Real| points.iter().copied().max_by(|a, b| f(a).total_cmp(&f(b))).unwrap_or(p0);
    let p1 = far(&|p| (p - p0).norm());
    let u = p1 - p0;
    let p2 = far(&|p| (p - p0).cross(&u).norm());
    let n = u.cross(&(p2 - p0));
    let area = n.norm();
    if area.is_nan() || area <= 0.0 {
        return Err(HullError::Collinear);
    }
    let n = n.normalize();
    let p3 = far(&|p| (p - p0).dot(&n).abs());
    if (p3 - p0).dot(&n).abs() <= FLAT_TOL_REL * size {
        return Err(HullError::Flat);
    }
    Ok(())
}

/// Checks that the triangles form a closed, consistently oriented surface and turns
/// them outward (positive signed volume).
fn oriented_triangles(verts: &[Point3], mut tris: Vec<[u32; 3]>) -> Result<Vec<[u32; 3]>, HullError> {
    if tris.len() < 4 {
        return Err(HullError::TooFewTriangles);
    }
    let mut directed: HashMap<(u32, u32), u32> = HashMap::new();
    for t in &tris {
        for k in 0..3 {
            *directed.entry((t[k], t[(k + 1) % 3])).or_default() += 1;
        }
    }
    for (&(a, b), &count) in &directed {
        if count != 1 || directed.get(&(b, a)) != Some(&1) {
            return Err(HullError::OpenSurface);
        }
    }
    let volume: Real = tris.iter().map(|t| verts[t[0] as usize].coords.dot(&verts[t[1] as usize].coords.cross(&verts[t[2] as usize].coords))).sum();
    if volume < 0.0 {
        for t in &mut tris {
            t.swap(1, 2);
        }
    }
    Ok(tris)
}

/// Grows faces from the largest triangles: a neighbouring triangle joins when all its
/// corners lie within `tol` of the seed triangle's plane. Returns each face's boundary
/// loop (counter-clockwise from outside).
fn merge_coplanar(verts: &[Point3], tris: &[[u32; 3]], tol: Real) -> Result<Vec<Vec<u32>>, HullError> {
    let p = |i: u32| verts[i as usize];
    let normal = |t: &[u32; 3]| (p(t[1]) - p(t[0])).cross(&(p(t[2]) - p(t[0])));
    let mut by_edge: HashMap<(u32, u32), usize> = HashMap::new();
    for (i, t) in tris.iter().enumerate() {
        for k in 0..3 {
            by_edge.insert((t[k], t[(k + 1) % 3]), i);
        }
    }
    let mut order: Vec<usize> = (0..tris.len()).collect();
    order.sort_by(|&i, &j| normal(&tris[j]).norm().total_cmp(&normal(&tris[i]).norm()));
    let mut face_of = vec![usize::MAX; tris.len()];
    let mut faces: Vec<Vec<usize>> = Vec::new();
    for &seed in &order {
        if face_of[seed] != usize::MAX {
            continue;
        }
        let n = normal(&tris[seed]);
        let n = if n.norm() > 0.0 { n.normalize() } else { n };
        let d = n.dot(&p(tris[seed][0]).coords);
        let id = faces.len();
        face_of[seed] = id;
        let mut members = vec![seed];
        let mut k = 0;
        while k < members.len() {
            let t = tris[members[k]];
            k += 1;
            for e in 0..3 {
                let Some(&nb) = by_edge.get(&(t[(e + 1) % 3], t[e])) else { continue };
                if face_of[nb] != usize::MAX {
                    continue;
                }
                let flat = tris[nb].iter().all(|&v| (n.dot(&p(v).coords) - d).abs() <= tol);
                if flat && normal(&tris[nb]).dot(&n) >= 0.0 {
                    face_of[nb] = id;
                    members.push(nb);
                }
            }
        }
        faces.push(members);
    }
    faces.iter().map(|members| boundary_loop(tris, members, &face_of)).collect()
}

/// The boundary of a merged face as one simple loop.
fn boundary_loop(tris: &[[u32; 3]], members: &[usize], face_of: &[usize]) -> Result<Vec<u32>, HullError> {
    let id = face_of[members[0]];
    let mut inner: HashMap<(u32, u32), ()> = HashMap::new();
    for &m in members {
        let t = tris[m];
        for k in 0..3 {
            inner.insert((t[k], t[(k + 1) % 3]), ());
        }
    }
    let mut next: HashMap<u32, u32> = HashMap::new();
    for &m in members {
        debug_assert_eq!(face_of[m], id);
        let t = tris[m];
        for k in 0..3 {
            let (a, b) = (t[k], t[(k + 1) % 3]);
            if !inner.contains_key(&(b, a)) && next.insert(a, b).is_some() {
                return Err(HullError::FaceNotSimple);
            }
        }
    }
    let Some(&start) = next.keys().min() else { return Err(HullError::FaceWithoutBoundary) };
    let mut l = vec![start];
    let mut v = next[&start];
    while v != start {
        if l.len() > next.len() {
            return Err(HullError::FaceBrokenBoundary);
        }
        l.push(v);
        v = *next.get(&v).ok_or(HullError::FaceOpenBoundary)?;
    }
    if l.len() != next.len() {
        return Err(HullError::FaceSeveralBoundaries);
    }
    Ok(l)
}

/// Drops loop vertices lying on the segment between their loop neighbours (points in
/// the middle of a hull edge). A vertex stays only where it is a corner of at least
/// three faces, so both faces along an edge drop it together.
fn drop_collinear(verts: &[Point3], loops: &mut [Vec<u32>], tol: Real) -> Result<(), HullError> {
    let mut corners: HashMap<u32, usize> = HashMap::new();
    for l in loops.iter() {
        let n = l.len();
        for i in 0..n {
            let (u, v, w) = (verts[l[(i + n - 1) % n] as usize], verts[l[i] as usize], verts[l[(i + 1) % n] as usize]);
            let uw = w - u;
            let off_line = (v - u).cross(&uw).norm() / uw.norm().max(Real::MIN_POSITIVE);
            let between = (v - u).dot(&uw) > 0.0 && (w - v).dot(&uw) > 0.0;
            if !(off_line <= tol && between) {
                *corners.entry(l[i]).or_default() += 1;
            }
        }
    }
    for l in loops.iter_mut() {
        l.retain(|v| corners.get(v).copied().unwrap_or(0) >= 3);
        if l.len() < 3 {
            return Err(HullError::FaceTooFewCorners);
        }
    }
    Ok(())
}

/// Plane of a loop by Newell's method; the offset is the mean over the corners.
fn newell_plane(verts: &[Point3], l: &[u32]) -> Result<(Vector3, Real), HullError> {
    let mut n = Vector3::zeros();
    let mut c = Vector3::zeros();
    for i in 0..l.len() {
        let (p, q) = (verts[l[i] as usize].coords, verts[l[(i + 1) % l.len()] as usize].coords);
        n += p.cross(&q);
        c += p;
    }
    let len = n.norm();
    if len.is_nan() || len <= 0.0 {
        return Err(HullError::FaceZeroArea);
    }
    let n = n / len;
    Ok((n, n.dot(&c) / l.len() as Real))
}

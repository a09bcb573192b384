//! The bounds of one cell of the clearance search: what a pair's distance can be at
//! the cell's middle (box gap, hull distance, exact distance, each with the direction to
//! measure gaps along) and how far its elements can close in over the cell (the motion
//! bound in the better element's frame, the advance along a direction, and the same to
//! second order from the pose rates). See the parent module for how the search uses them.
use super::*;

/// A pair measured at one instant.
pub(super) struct Probe {
    /// A lower bound of the distance.
    pub(super) lower: Real,
    /// The distance, when known.
    pub(super) exact: Option<PairDistance>,
    /// A unit direction from b towards a along which to measure gaps (world frame).
    pub(super) normal: Option<Vector3>,
}

/// Where a pair's last measurement left off: GJK's plane normal against a mesh's
/// convex bound (world frame; zero for none).
#[derive(Clone)]
pub(super) struct WarmProbe {
    pub(super) normal: Vector3,
}

impl WarmProbe {
    pub(super) fn new() -> Self {
        Self { normal: Vector3::zeros() }
    }
}

/// The part `[from, to]` of a cell (local times, around its middle) that its
/// second-order bound proves apart where the whole cell is not, with the bound there
/// (before rounding): what is left of the cell is `[lo, from]` and `[to, hi]`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Settled {
    pub(super) from: Real,
    pub(super) to: Real,
    pub(super) bound: Real,
}

/// A frame a motion bound can be taken in: the moving element's pose at the middle
/// and over the cell in that frame, its ball, the frame's pose at the middle (world
/// from frame), the sign of the direction (of `n`, from b towards a) the element's
/// points must move in to close the gap, and which element moves.
pub(super) type Frame = (Isometry3, IntervalPose, BoundingBall, Isometry3, Real, usize);

/// How far the elements of a pair may move relative to each other over a cell.
pub(super) struct Reach {
    /// Any point, in any direction: the smallest over the frames.
    pub(super) any: Real,
    pub(super) frames: [Option<Frame>; 2],
}

impl Reach {
    pub(super) const NONE: Reach = Reach { any: 0.0, frames: [None, None] };

    /// A bound on how far any point advances along world `n` (from b towards a)
    /// towards the other element.
    pub(super) fn along(&self, n: &Vector3) -> Real {
        let mut best = if self.frames.iter().any(Option::is_some) { Real::INFINITY } else { 0.0 };
        for (start, over, ball, frame, sign, _) in self.frames.iter().flatten() {
            let local = frame.rotation.inverse_transform_vector(n) * *sign;
            let a = advance_along(start, over, ball, &local);
            if a.is_finite() {
                best = best.min(a.max(0.0));
            }
        }
        best
    }
}

/// The frame a pair's gaps are taken in to second order: a link against an obstacle in
/// the world frame; two links in the frame of their lowest common ancestor link, where
/// only the joints between them move them (a direction fixed in any frame gives a lower
/// bound of the distance at each instant). The map from the world to it at the cell's
/// middle, and per element of the pair its pose there and its rates over the cell
/// (`None`: an obstacle's, fixed).
pub(super) struct GapFrame {
    pub(super) from_world: Isometry3,
    pub(super) poses: [Isometry3; 2],
    pub(super) rates: [Option<ElementRates>; 2],
}

/// What every pair measured over one cell shares.
pub(super) struct CellData {
    /// Link poses at the middle.
    pub(super) poses: Vec<Isometry3>,
    /// Link enclosures over the cell, with the poses in the parent's frame (the links
    /// of the pairs measured so far).
    pub(super) links: Option<EnclosuresOnDemand>,
    /// Link poses and pose rates over the cell (the same), per base link they are
    /// given relative to (the root for world poses).
    pub(super) jets: HashMap<usize, JetsOnDemand>,
    /// Per link element: its world pose over the cell, and how far it moves.
    pub(super) world_motion: HashMap<usize, (IntervalPose, Real)>,
}

impl CellData {
    pub(super) fn new(world: &CollisionWorld, segment: &Segment, middle: Real) -> Self {
        Self { poses: poses_at(world, segment, middle), links: None, jets: HashMap::new(), world_motion: HashMap::new() }
    }
}

impl ClearanceSearch<'_> {
    /// Which joints move over a segment (a joint whose variable's polynomial is
    /// constant stays exactly where it is, also in floating point).
    pub(super) fn moving_joints(&self, segment: &Segment) -> Vec<bool> {
        self.world
            .robot
            .joints
            .iter()
            .map(|j| j.kind != JointKind::Fixed && j.variable.is_some_and(|v| segment.coefficients[v][1..=segment.degree].iter().any(|&c| c != 0.0)))
            .collect()
    }

    /// A lower bound of the pair's distance with the links at `poses`, exact where that
    /// is cheap (two convex primitives), with the direction to measure gaps along.
    pub(super) fn probe(&self, p: usize, poses: &[Isometry3], warm: &mut WarmProbe) -> Probe {
        let world = self.world;
        let (a, b) = self.pairs[p];
        let (ea, eb) = (&world.elements[a], &world.elements[b]);
        let (pose_a, pose_b) = (world.element_pose(ea, poses), world.element_pose(eb, poses));
        if ea.shape.as_support_map().is_some() && eb.shape.as_support_map().is_some() {
            let d = pair_distance(world, (a, b), poses, Real::INFINITY).expect("no cutoff");
            return Probe { lower: d.distance, exact: Some(d), normal: direction(&d) };
        }
        // A mesh: GJK's separating plane against its convex bound.
        let plane = gjk::separating_plane_from(&self.support(a), &pose_a, &self.support(b), &pose_b, &warm.normal);
        if plane.gap > 0.0 {
            warm.normal = plane.normal;
            Probe { lower: plane.gap, exact: None, normal: Some(plane.normal) }
        } else {
            Probe { lower: 0.0, exact: None, normal: None }
        }
    }

    /// Element `e`'s shape as a support map.
    pub(super) fn support(&self, e: usize) -> Support<'_> {
        match &self.world.elements[e].shape {
            Shape::TriMesh(m) => Support::Hull(m.hull()),
            // The hull of its cubes, whose support points are cube corners (points of the map).
            Shape::VoxelMap(m) => Support::Convex(m.as_ref()),
            convex => Support::Convex(convex.as_support_map().expect("primitives are convex")),
        }
    }

    /// The gap between the pair's elements along world `n` (from b towards a): every
    /// point of a minus every point of b, projected on `n`, is at least this. A lower
    /// bound of the distance whatever `n` is.
    pub(super) fn gap_along(&self, p: usize, poses: &[Isometry3], n: &Vector3) -> Real {
        let (a, b) = self.pairs[p];
        let world = self.world;
        let (pose_a, pose_b) = (world.element_pose(&world.elements[a], poses), world.element_pose(&world.elements[b], poses));
        -self.extent(a, &pose_a, &-n) - self.extent(b, &pose_b, n)
    }

    /// The largest `w · x` over the points `x` of element `e` placed by `pose`.
    pub(super) fn extent(&self, e: usize, pose: &Isometry3, w: &Vector3) -> Real {
        extent_along(&self.support(e), pose, w)
    }

    /// A lower bound of the gap along world `n` over local times `[lo, hi]`, to second
    /// order in the cell's length, from the poses at the middle and the links' rates
    /// over the cell ([`gap_over`](crate::motion_bounds::second_order::gap_over)), in the
    /// pair's [`GapFrame`].
    pub(super) fn second_order(&self, p: usize, segment: &Segment, lo: Real, hi: Real, data: &mut CellData, n: &Vector3) -> Real {
        self.second_order_settling(p, segment, (lo, hi), data, n, Real::NEG_INFINITY).0
    }

    /// [`Self::second_order`], and where that bound over the whole cell stays below
    /// `target`, the part around the middle that the same bound proves at least
    /// `target` apart ([`Settled`]): the gap's bound is concave in time, so its
    /// smallest value over the part is at the part's ends. The part reaches on each
    /// side to the cell's end, or to the first or the second dyadic point short of it
    /// (leaving an eighth or a quarter of the cell), whichever is the farthest that
    /// the bound holds at. (A pair closing in over the cell, or drawing away, is
    /// settled on one side at once: that half is not measured again.)
    pub(super) fn second_order_settling(
        &self,
        p: usize,
        segment: &Segment,
        (lo, hi): (Real, Real),
        data: &mut CellData,
        n: &Vector3,
        target: Real,
    ) -> (Real, Option<Settled>) {
        let Some(frame) = self.gap_frame(p, segment, lo, hi, data) else { return (Real::NEG_INFINITY, None) };
        let (a, b) = self.pairs[p];
        let (support_a, support_b) = (self.support(a), self.support(b));
        let side_a = MovingShape { shape: &support_a, ball: self.balls[a], pose: frame.poses[0], rates: frame.rates[0] };
        let side_b = MovingShape { shape: &support_b, ball: self.balls[b], pose: frame.poses[1], rates: frame.rates[1] };
        let at = gap_bound(&side_a, &side_b, &(frame.from_world.rotation * n));
        let (middle, half) = (0.5 * (lo + hi), 0.5 * (hi - lo));
        let (left, right) = (at(-half), at(half));
        let bound = left.min(right);
        if bound >= target {
            return (bound, None);
        }
        let at_middle = at(0.0);
        if at_middle < target {
            return (bound, None);
        }
        // The farthest point on one side the bound holds at, and its value there: the
        // end (already known), then the points an eighth and a quarter of the cell short
        // of it (as halving gives them), else the middle.
        let reach = |end: Real, at_end: Real| {
            if at_end >= target {
                return (end, at_end);
            }
            let quarter = 0.5 * (end + middle);
            let eighth = 0.5 * (end + quarter);
            [eighth, quarter].into_iter().map(|x| (x, at(x - middle))).find(|&(_, gap)| gap >= target).unwrap_or((middle, at_middle))
        };
        let ((from, at_from), (to, at_to)) = (reach(lo, left), reach(hi, right));
        let settled = (from < middle || to > middle).then_some(Settled { from, to, bound: at_from.min(at_to) });
        (bound, settled)
    }

    /// The frame pair `p`'s gaps are taken in to second order over a cell, with the
    /// elements' poses at the middle and rates over the cell there; `None` where a
    /// link's rates are not finite.
    pub(super) fn gap_frame(&self, p: usize, segment: &Segment, lo: Real, hi: Real, data: &mut CellData) -> Option<GapFrame> {
        let world = self.world;
        let robot = &world.robot;
        let (a, b) = self.pairs[p];
        let base = match (world.elements[a].body, world.elements[b].body) {
            (Body::Link(la), Body::Link(lb)) => self.tree.common_ancestor(la, lb),
            _ => robot.root_link,
        };
        let jets = data.jets.entry(base).or_insert_with(|| JetsOnDemand::relative_to(robot, segment, lo, hi, base));
        // A link element's rates over the cell (none for an obstacle), if finite.
        let mut rates = |e: usize| -> Result<Option<ElementRates>, ()> {
            let element = &world.elements[e];
            match element.body {
                Body::Link(l) => ElementRates::on_link(jets.get(robot, l), &element.origin).map(Some).ok_or(()),
                Body::Obstacle(_) => Ok(None),
            }
        };
        let (Ok(rates_a), Ok(rates_b)) = (rates(a), rates(b)) else { return None };
        let from_world = data.poses[base].inverse();
        let pose = |e: usize| from_world * world.element_pose(&world.elements[e], &data.poses);
        Some(GapFrame { from_world, poses: [pose(a), pose(b)], rates: [rates_a, rates_b] })
    }

    /// An upper bound of the pair's distance: from the vertex of a mesh nearest the
    /// other element along `n` (a point of the mesh) to that element, or to the other
    /// mesh's nearest vertex.
    pub(super) fn upper_bound(&self, p: usize, poses: &[Isometry3], n: Option<&Vector3>) -> Real {
        let Some(n) = n else { return Real::INFINITY };
        let (a, b) = self.pairs[p];
        let world = self.world;
        let (ea, eb) = (&world.elements[a], &world.elements[b]);
        let (pose_a, pose_b) = (world.element_pose(ea, poses), world.element_pose(eb, poses));
        let on = |e: usize, pose: &Isometry3, w: &Vector3| pose * self.support(e).on_surface(&pose.rotation.inverse_transform_vector(w));
        let point_to = |q: Point3, shape: &Shape, pose: &Isometry3| {
            let s = shape.as_support_map().expect("a convex primitive");
            gjk::closest_points(&Ball { radius: 0.0 }, &Isometry3::translation(q.x, q.y, q.z), s, pose).distance
        };
        let (va, vb) = (on(a, &pose_a, &-n), on(b, &pose_b, n));
        let bound = match (ea.shape.as_support_map(), eb.shape.as_support_map()) {
            (None, Some(_)) => point_to(va, &eb.shape, &pose_b),
            (Some(_), None) => point_to(vb, &ea.shape, &pose_a),
            _ => (va - vb).norm(),
        };
        bound + self.rounding(p, poses)
    }

    /// Covers the rounding of distances and gaps computed in floating point at the
    /// scale of the pair's placement.
    pub(super) fn rounding(&self, p: usize, poses: &[Isometry3]) -> Real {
        let (a, b) = self.pairs[p];
        let world = self.world;
        let scale: Real = [a, b]
            .iter()
            .map(|&e| {
                world.element_pose(&world.elements[e], poses).translation.vector.abs().sum() + self.balls[e].center.coords.abs().sum() + self.balls[e].radius
            })
            .sum();
        1e-12 * (1.0 + scale)
    }

    /// At least [`Self::rounding`] of every pair, with the links at `poses`: twice the
    /// largest element's scale.
    pub(super) fn largest_rounding(&self, poses: &[Isometry3]) -> Real {
        let world = self.world;
        let largest = world
            .elements
            .iter()
            .zip(&self.balls)
            .map(|(e, ball)| world.element_pose(e, poses).translation.vector.abs().sum() + ball.center.coords.abs().sum() + ball.radius)
            .fold(0.0, Real::max);
        1e-12 * (1.0 + 2.0 * largest)
    }

    /// How far the pair's elements move relative to each other over local times
    /// `[lo, hi]` of `segment`, from their poses at the middle.
    pub(super) fn reach(&self, p: usize, segment: &Segment, lo: Real, hi: Real, data: &mut CellData) -> Reach {
        let world = self.world;
        let (a, b) = self.pairs[p];
        let (ea, eb) = (&world.elements[a], &world.elements[b]);
        let on_demand = data.links.get_or_insert_with(|| EnclosuresOnDemand::new(&world.robot, segment, lo, hi));
        for e in [ea, eb] {
            if let Body::Link(l) = e.body {
                on_demand.ensure(&world.robot, l);
            }
        }
        let links = on_demand.links();
        let (pose_a, pose_b) = (world.element_pose(ea, &data.poses), world.element_pose(eb, &data.poses));
        match (ea.body, eb.body) {
            (Body::Link(_), Body::Link(_)) => {
                // b in a's frame, and a in b's.
                let [over_b, over_a] = element_relative_poses(&self.tree, ea, eb, links);
                let b_in_a = (pose_a.inv_mul(&pose_b), over_b, self.balls[b], pose_a, 1.0, b);
                let a_in_b = (pose_b.inv_mul(&pose_a), over_a, self.balls[a], pose_b, -1.0, a);
                let any = motion_bound(&b_in_a.0, &b_in_a.1, &b_in_a.2).min(motion_bound(&a_in_b.0, &a_in_b.1, &a_in_b.2));
                Reach { any, frames: [Some(b_in_a), Some(a_in_b)] }
            }
            (Body::Link(_), Body::Obstacle(_)) => {
                // a in the world frame (b's, up to its fixed pose): the same for every
                // obstacle.
                let (over, any) = *data.world_motion.entry(a).or_insert_with(|| {
                    let over = element_pose(ea, links);
                    (over, motion_bound(&pose_a, &over, &self.balls[a]))
                });
                Reach { any, frames: [Some((pose_a, over, self.balls[a], Isometry3::identity(), -1.0, a)), None] }
            }
            _ => unreachable!("pairs are (link, link) or (link, obstacle)"),
        }
    }
}

/// The unit direction from b's closest point towards a's, if they are apart.
pub(super) fn direction(d: &PairDistance) -> Option<Vector3> {
    let v = d.point_a - d.point_b;
    let norm = v.norm();
    (d.distance > 0.0 && norm > 0.0 && norm.is_finite()).then(|| v / norm)
}

/// An element's shape as a support map: a primitive's own, a voxel map's cube corners,
/// a mesh's convex bound (`TriMesh::hull`: the hull of its extreme vertices, grown by
/// the margin that holds the others, a few hundred vertices where the mesh has
/// thousands; its support points, margin aside, are vertices of the mesh).
pub(super) enum Support<'a> {
    Convex(&'a dyn SupportMap),
    Hull(MeshHull<'a>),
}

impl Support<'_> {
    /// A point of the shape farthest along `dir` (a mesh's: among its extreme vertices,
    /// within the margin of the farthest): a mesh's vertex, a primitive's support point.
    pub(super) fn on_surface(&self, dir: &Vector3) -> Point3 {
        match self {
            Support::Convex(s) => s.support(dir),
            Support::Hull(h) => h.core_support(dir),
        }
    }
}

impl SupportMap for Support<'_> {
    fn core_support(&self, dir: &Vector3) -> Point3 {
        match self {
            Support::Convex(s) => s.core_support(dir),
            Support::Hull(h) => h.core_support(dir),
        }
    }

    fn margin(&self) -> Real {
        match self {
            Support::Convex(s) => s.margin(),
            Support::Hull(h) => h.margin(),
        }
    }
}

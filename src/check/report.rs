//! The report of a check, as the contract's JSON and as text.
//!
//! Every report and every contact event is built here ([`Report::new`],
//! [`ContactEvent::from_ccd_contact`], [`ContactEvent::from_state_contact`]), so that the
//! methods, the node's current-state verdict and the refusals write the same fields.
use super::Method;
use crate::ccd::Statistics;
use crate::ccd::pipeline::CcdContact;
use crate::certifier::certify::CertifierStats;
use crate::collision::{Body, CollisionWorld, StateContact};
use crate::math::{Point3, Real};
use serde::Serialize;
use std::fmt::Write;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    CollisionFree,
    Collision,
    Uncertain,
    Invalid,
}

impl Verdict {
    /// The CLI's exit status (the contract).
    pub fn exit_code(self) -> i32 {
        match self {
            Verdict::CollisionFree => 0,
            Verdict::Collision => 1,
            Verdict::Invalid => 2,
            Verdict::Uncertain => 3,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Verdict::CollisionFree => "collision_free",
            Verdict::Collision => "collision",
            Verdict::Uncertain => "uncertain",
            Verdict::Invalid => "invalid",
        }
    }
}

/// One contact event: a pair in contact over a time interval.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ContactEvent {
    pub link: String,
    /// Obstacle id, or a link for self-collision.
    pub other: String,
    pub time_of_contact: Real,
    /// `None` while still in contact at the end of the trajectory.
    pub time_of_separation: Option<Real>,
    pub point: [Real; 3],
    /// Unit, from `other` towards `link`; `None` when the method gives none.
    pub normal: Option<[Real; 3]>,
    pub max_penetration_depth: Option<Real>,
}

impl ContactEvent {
    /// A contact of `link` with `other` from `time_of_contact` at the world `point`; its
    /// end, normal and depth unknown.
    fn new(world: &CollisionWorld, link: usize, other: Body, time_of_contact: Real, point: Point3) -> Self {
        Self {
            link: world.body_name(Body::Link(link)).to_string(),
            other: world.body_name(other).to_string(),
            time_of_contact,
            time_of_separation: None,
            point: point.coords.into(),
            normal: None,
            max_penetration_depth: None,
        }
    }

    /// A contact event the CCD pipeline found: its entry, exit, point and normal (its
    /// depth is measured later).
    pub fn from_ccd_contact(world: &CollisionWorld, contact: &CcdContact) -> Self {
        Self {
            time_of_separation: contact.time_of_separation,
            normal: contact.normal.map(|n| n.into()),
            ..Self::new(world, contact.link, contact.other, contact.time_of_contact, contact.point)
        }
    }

    /// A contact found in one configuration (a sampled state, the current state), taken
    /// as beginning at `time`: no end, normal or depth.
    pub fn from_state_contact(world: &CollisionWorld, contact: &StateContact, time: Real) -> Self {
        Self::new(world, contact.link, contact.other, time, contact.point)
    }
}

/// What made a report: one of the three methods over a trajectory, or the node's check of
/// its current configuration (`current_state`, one state, never a motion).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ReportMethod {
    Certified,
    Pipeline,
    Sampled,
    CurrentState,
}

impl ReportMethod {
    pub fn name(self) -> &'static str {
        match self {
            ReportMethod::Certified => "certified",
            ReportMethod::Pipeline => "pipeline",
            ReportMethod::Sampled => "sampled",
            ReportMethod::CurrentState => "current_state",
        }
    }
}

impl From<Method> for ReportMethod {
    fn from(method: Method) -> Self {
        match method {
            Method::Certified => ReportMethod::Certified,
            Method::Pipeline => ReportMethod::Pipeline,
            Method::Sampled => ReportMethod::Sampled,
        }
    }
}

/// Which part of the certified method decided its verdict.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum DecidedBy {
    /// The pipeline found a contact.
    Pipeline,
    /// The certifier proved the motion free, or named the pair it could not prove free.
    Certifier,
    /// The clearance search proved every pair that could touch at least half the
    /// tolerance apart over the whole motion: the motion is free on its bounds alone,
    /// and neither the pipeline nor the certifier had a pair left to look at.
    Clearance,
}

impl DecidedBy {
    pub fn name(self) -> &'static str {
        match self {
            DecidedBy::Pipeline => "pipeline",
            DecidedBy::Certifier => "certifier",
            DecidedBy::Clearance => "clearance",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Report {
    pub verdict: Verdict,
    pub certified: bool,
    pub method: ReportMethod,
    pub time_of_contact: Option<Real>,
    pub segment_index: Option<usize>,
    pub contacts: Vec<ContactEvent>,
    pub max_penetration_depth: Option<Real>,
    pub min_clearance: Option<Real>,
    pub tolerance: Real,
    pub elapsed_ms: Real,
    pub error: Option<String>,
    /// Discrete configurations examined (sampled method).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub states_checked: Option<usize>,
    /// Certified method: which part decided the verdict.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub decided_by: Option<DecidedBy>,
    /// Certified method, `uncertain`: the pair left unproven and when.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unproven: Option<UnprovenPair>,
    /// Where `min_clearance` is attained (when the motion is not colliding).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub closest_approach: Option<ClosestApproach>,
    /// The same for the clearance to the world (links against obstacles) and for the
    /// self-clearance (links against links), apart (not colliding motions; `None`
    /// where no such pair is checked).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub world_clearance: Option<ClosestApproach>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub self_clearance: Option<ClosestApproach>,
    /// With a required clearance (`--min-clearance`, the gate's `gate_min_clearance`):
    /// whether the motion is proven free with at least that clearance.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub clearance_ok: Option<bool>,
    /// What the check noticed without refusing the motion (velocity limits exceeded).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
    /// With `--stats`: how many pairs each stage of the CCD pipeline kept and dropped,
    /// and its time; then the certifier's work (certified method). Last, after the
    /// contract's keys.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stats: Option<Statistics>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub certifier_stats: Option<CertifierStats>,
    /// Checked with `--first-only`: a contact's unknown end was not computed (rather
    /// than lasting to the end).
    #[serde(skip)]
    pub first_only: bool,
}

/// The pair, instant and points of the smallest distance over the motion.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ClosestApproach {
    pub link: String,
    pub other: String,
    /// Metres.
    pub distance: Real,
    /// Seconds from trajectory start.
    pub time: Real,
    /// World points on `link` and on `other`.
    pub point: [Real; 3],
    pub other_point: [Real; 3],
    /// Proven: no checked pair comes closer than this over the motion.
    pub lower_bound: Real,
}

/// A pair that came within the tolerance without a contact being found.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct UnprovenPair {
    pub link: String,
    pub other: String,
    /// Seconds from trajectory start: the time interval the certifier stopped on.
    pub from: Real,
    pub to: Real,
}

impl Report {
    /// A report of `method` with this verdict and tolerance and nothing else: no
    /// contact, measure, error or warning, not certified, no time spent. Each method
    /// fills in what it found.
    pub fn new(method: ReportMethod, verdict: Verdict, tolerance: Real) -> Self {
        Self {
            verdict,
            certified: false,
            method,
            time_of_contact: None,
            segment_index: None,
            contacts: Vec::new(),
            max_penetration_depth: None,
            min_clearance: None,
            tolerance,
            elapsed_ms: 0.0,
            error: None,
            states_checked: None,
            decided_by: None,
            unproven: None,
            closest_approach: None,
            world_clearance: None,
            self_clearance: None,
            clearance_ok: None,
            warnings: Vec::new(),
            stats: None,
            certifier_stats: None,
            first_only: false,
        }
    }

    /// The report for input that could not be checked.
    pub fn invalid(method: ReportMethod, tolerance: Real, error: String) -> Self {
        Self { error: Some(error), ..Self::new(method, Verdict::Invalid, tolerance) }
    }

    /// The clearance the report proves: the closest approach's lower bound (no checked
    /// pair comes closer over the motion); `None` unless the motion is collision-free.
    pub fn proven_clearance(&self) -> Option<Real> {
        match self.verdict {
            Verdict::CollisionFree => self.closest_approach.as_ref().map(|c| c.lower_bound),
            _ => None,
        }
    }

    /// Holds the report to a required clearance `min` (metres): `clearance_ok` says
    /// whether the motion is collision-free and proven at least `min` away from every
    /// obstacle and link; returns by how much it falls short (`None`: it does not).
    /// A collision-free motion whose clearance was not measured is short by all of `min`.
    pub fn require_clearance(&mut self, min: Real) -> Option<Real> {
        let shortfall = match self.verdict {
            Verdict::CollisionFree => {
                let proven = self.proven_clearance().unwrap_or(0.0);
                (proven < min).then_some(min - proven)
            }
            _ => None,
        };
        self.clearance_ok = Some(self.verdict == Verdict::CollisionFree && shortfall.is_none());
        shortfall
    }

    /// The CLI's exit status (the contract): the verdict's, or 4 for a collision-free
    /// motion closer than the required clearance.
    pub fn exit_code(&self) -> i32 {
        match (self.verdict, self.clearance_ok) {
            (Verdict::CollisionFree, Some(false)) => 4,
            (verdict, _) => verdict.exit_code(),
        }
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("reports serialize")
    }

    /// A readable summary for a terminal.
    pub fn to_text(&self) -> String {
        let mut s = String::new();
        let certified = if self.certified { " (certified)" } else { "" };
        let _ = writeln!(s, "verdict: {}{certified}   method: {}   {:.3} ms", self.verdict.name(), self.method.name(), self.elapsed_ms);
        if let Some(e) = &self.error {
            let _ = writeln!(s, "error: {e}");
        }
        if let (Some(t), Some(k)) = (self.time_of_contact, self.segment_index) {
            let _ = writeln!(s, "first contact at t = {t:.6} s (segment {k})");
        }
        for c in &self.contacts {
            let until = match (c.time_of_separation, self.first_only) {
                (Some(t), _) => format!("until {t:.6} s"),
                (None, true) => "(its end not computed with --first-only)".to_string(),
                (None, false) => "until the end".to_string(),
            };
            let p = c.point;
            let _ = writeln!(s, "  {} <-> {}: from {:.6} s {until}, at [{:.4}, {:.4}, {:.4}]", c.link, c.other, c.time_of_contact, p[0], p[1], p[2]);
        }
        if let Some(c) = &self.closest_approach {
            let clearance = self.min_clearance.unwrap_or(c.lower_bound);
            let _ = writeln!(s, "min clearance: {clearance:.6} m, {} <-> {} at t = {:.6} s", c.link, c.other, c.time);
        } else if let Some(clearance) = self.min_clearance {
            let _ = writeln!(s, "min clearance: {clearance:.6} m");
        }
        for (what, c) in [("to the world", &self.world_clearance), ("self-clearance", &self.self_clearance)] {
            if let Some(c) = c {
                let _ = writeln!(s, "  {what}: {:.6} m, {} <-> {} at t = {:.6} s", c.distance, c.link, c.other, c.time);
            }
        }
        if self.verdict == Verdict::CollisionFree && self.clearance_ok == Some(false) {
            let proven = self.proven_clearance().map_or("unmeasured".to_string(), |c| format!("{c:.6} m"));
            let _ = writeln!(s, "closer than the required clearance: proven clearance {proven}");
        }
        if let Some(depth) = self.max_penetration_depth.filter(|&d| d > 0.0) {
            let _ = writeln!(s, "max penetration depth: {depth:.6} m");
        }
        for w in &self.warnings {
            let _ = writeln!(s, "warning: {w}");
        }
        if let Some(n) = self.states_checked {
            let _ = writeln!(s, "states checked: {n}");
        }
        if let Some(by) = self.decided_by {
            let _ = writeln!(s, "decided by: {}", by.name());
        }
        if let Some(u) = &self.unproven {
            let _ = writeln!(s, "not proven free: {} <-> {} between {:.6} s and {:.6} s (within the tolerance)", u.link, u.other, u.from, u.to);
        }
        if self.verdict == Verdict::Uncertain && self.method == ReportMethod::Sampled {
            let _ = writeln!(s, "no sampled state collides; sampling proves nothing between samples");
        }
        s
    }
}

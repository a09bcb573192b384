//! The joint motion between trajectory points, as `joint_trajectory_controller`
//! executes it: linear in joint space with positions only, cubic (Hermite) with
//! velocities, quintic with velocities and accelerations.
use super::{JointState, MAX_JOINT_VALUE, NO_POINTS, Trajectory};
use crate::error::{InputError, InputResult};
use crate::math::Real;
use crate::robot::Robot;

/// One segment between consecutive trajectory points. Every joint variable is a
/// polynomial in the local time `s` in `[0, duration]`.
#[derive(Clone, Debug)]
pub struct Segment {
    /// Seconds from trajectory start at `s = 0`.
    pub start_time: Real,
    pub duration: Real,
    /// 1 (linear), 3 (cubic) or 5 (quintic).
    pub degree: usize,
    /// `coefficients[v][i]` multiplies `s^i` for joint variable `v`.
    pub coefficients: Vec<[Real; 6]>,
}

impl Segment {
    /// Joint vector at local time `s` (clamped into the segment).
    pub fn positions_at(&self, s: Real, out: &mut [Real]) {
        let s = s.clamp(0.0, self.duration);
        for (q, c) in out.iter_mut().zip(&self.coefficients) {
            *q = c[..=self.degree].iter().rev().fold(0.0, |acc, ci| acc * s + ci);
        }
    }

    /// Joint velocities at local time `s`.
    pub fn velocities_at(&self, s: Real, out: &mut [Real]) {
        let s = s.clamp(0.0, self.duration);
        for (v, c) in out.iter_mut().zip(&self.coefficients) {
            *v = (1..=self.degree).rev().fold(0.0, |acc, i| acc * s + i as Real * c[i]);
        }
    }

    /// The largest travel of any joint variable over the segment (rad, or m): its
    /// change, or for splines its total variation over fine sub-steps.
    pub fn largest_travel(&self) -> Real {
        const SUBSTEPS: usize = 64;
        let n = self.coefficients.len();
        let substeps = if self.degree == 1 { 1 } else { SUBSTEPS };
        let (mut prev, mut cur) = (vec![0.0; n], vec![0.0; n]);
        let mut travel = vec![0.0; n];
        self.positions_at(0.0, &mut prev);
        for k in 1..=substeps {
            self.positions_at(self.duration * k as Real / substeps as Real, &mut cur);
            for v in 0..n {
                travel[v] += (cur[v] - prev[v]).abs();
            }
            std::mem::swap(&mut prev, &mut cur);
        }
        travel.iter().copied().fold(0.0, Real::max)
    }

    /// Steps of at most `resolution` of joint travel that cover the segment (at least 1).
    pub fn step_count(&self, resolution: Real) -> usize {
        ((self.largest_travel() / resolution).ceil() as usize).max(1)
    }
}

/// The whole motion of every joint variable of a robot.
#[derive(Clone, Debug)]
pub struct JointMotion {
    /// Full joint vectors at the trajectory points.
    pub waypoints: Vec<Vec<Real>>,
    /// Seconds from trajectory start of each point.
    pub waypoint_times: Vec<Real>,
    pub segments: Vec<Segment>,
}

impl JointMotion {
    /// The motion of `robot` along `trajectory`; joints it leaves out keep their value
    /// from `start` (else 0 clamped into their limits); mimic joints follow their leader.
    pub fn new(robot: &Robot, trajectory: &Trajectory, start: Option<&JointState>) -> InputResult<Self> {
        if trajectory.points.is_empty() {
            return Err(InputError::new(NO_POINTS).at("points"));
        }
        let mut base = robot.default_positions();
        if let Some(state) = start {
            for (name, value) in state.name.iter().zip(&state.position) {
                if let Some(v) = robot.variable_of_joint(name) {
                    // A held joint far out makes the links' enclosures meaningless.
                    if !(-MAX_JOINT_VALUE..=MAX_JOINT_VALUE).contains(value) {
                        return Err(
                            InputError::new(format!("joint '{name}' is held at {value}, not a position within ±{:e}", MAX_JOINT_VALUE)).at("start state")
                        );
                    }
                    base[v] = *value;
                }
            }
        }
        // Where each trajectory column goes in the joint vector (None: ignored mimic joint).
        let mut columns = Vec::with_capacity(trajectory.joint_names.len());
        for name in &trajectory.joint_names {
            let column = match robot.joint_named(name) {
                None => {
                    let known: Vec<&str> = robot.variable_names().collect();
                    return Err(InputError::new(format!("unknown joint '{name}' (robot '{}' has {known:?})", robot.name)).at("joint_names"));
                }
                Some(j) if robot.joints[j].mimic.is_some() => {
                    log::warn!("trajectory names mimic joint '{name}'; it follows its leader instead");
                    None
                }
                Some(_) => match robot.variable_of_joint(name) {
                    Some(v) => Some(v),
                    None => return Err(InputError::new(format!("joint '{name}' is fixed and cannot move")).at("joint_names")),
                },
            };
            columns.push(column);
        }
        let expand = |values: &[Real], fill: &[Real]| -> Vec<Real> {
            let mut q = fill.to_vec();
            for (column, value) in columns.iter().zip(values) {
                if let Some(v) = column {
                    q[*v] = *value;
                }
            }
            q
        };
        let zeros = vec![0.0; base.len()];
        let points = &trajectory.points;
        let waypoints: Vec<Vec<Real>> = points.iter().map(|p| expand(&p.positions, &base)).collect();
        let waypoint_times: Vec<Real> = points.iter().map(|p| p.time_from_start).collect();
        let mut segments = Vec::with_capacity(points.len().saturating_sub(1));
        for k in 0..points.len().saturating_sub(1) {
            let (p0, p1) = (&points[k], &points[k + 1]);
            let duration = p1.time_from_start - p0.time_from_start;
            let (q0, q1) = (&waypoints[k], &waypoints[k + 1]);
            let coefficients = match (&p0.velocities, &p1.velocities) {
                (Some(v0), Some(v1)) => {
                    let (v0, v1) = (expand(v0, &zeros), expand(v1, &zeros));
                    match (&p0.accelerations, &p1.accelerations) {
                        (Some(a0), Some(a1)) => {
                            let (a0, a1) = (expand(a0, &zeros), expand(a1, &zeros));
                            (0..base.len()).map(|v| quintic(q0[v], v0[v], a0[v], q1[v], v1[v], a1[v], duration)).collect()
                        }
                        _ => (0..base.len()).map(|v| cubic(q0[v], v0[v], q1[v], v1[v], duration)).collect(),
                    }
                }
                _ => (0..base.len()).map(|v| linear(q0[v], q1[v], duration)).collect(),
            };
            let degree = match (&p0.velocities, &p1.velocities, &p0.accelerations, &p1.accelerations) {
                (Some(_), Some(_), Some(_), Some(_)) => 5,
                (Some(_), Some(_), _, _) => 3,
                _ => 1,
            };
            segments.push(Segment { start_time: p0.time_from_start, duration, degree, coefficients });
        }
        Ok(Self { waypoints, waypoint_times, segments })
    }

    pub fn start_time(&self) -> Real {
        self.waypoint_times[0]
    }

    pub fn end_time(&self) -> Real {
        *self.waypoint_times.last().expect("a motion has a point")
    }

    /// Joint vector at time `t` (seconds from trajectory start), clamped into the motion.
    pub fn positions_at(&self, t: Real) -> Vec<Real> {
        let mut q = self.waypoints[0].clone();
        if let Some(k) = self.segment_at(t) {
            let seg = &self.segments[k];
            seg.positions_at(t - seg.start_time, &mut q);
        } else if t >= self.end_time() {
            q.clone_from(self.waypoints.last().expect("a motion has a point"));
        }
        q
    }

    /// The segment that holds time `t` (the later one at a shared endpoint).
    pub fn segment_at(&self, t: Real) -> Option<usize> {
        if self.segments.is_empty() || t < self.start_time() {
            return None;
        }
        let k = self.segments.partition_point(|s| s.start_time <= t);
        Some(k.saturating_sub(1).min(self.segments.len() - 1))
    }
}

fn linear(q0: Real, q1: Real, t: Real) -> [Real; 6] {
    [q0, (q1 - q0) / t, 0.0, 0.0, 0.0, 0.0]
}

/// Hermite cubic through (q0, v0) at 0 and (q1, v1) at t.
fn cubic(q0: Real, v0: Real, q1: Real, v1: Real, t: Real) -> [Real; 6] {
    let t2 = t * t;
    [q0, v0, (3.0 * (q1 - q0) - (2.0 * v0 + v1) * t) / t2, (2.0 * (q0 - q1) + (v0 + v1) * t) / (t2 * t), 0.0, 0.0]
}

/// Quintic through (q, v, a) at 0 and at t.
fn quintic(q0: Real, v0: Real, a0: Real, q1: Real, v1: Real, a1: Real, t: Real) -> [Real; 6] {
    let (t2, t3) = (t * t, t * t * t);
    [
        q0,
        v0,
        a0 / 2.0,
        (20.0 * (q1 - q0) - (8.0 * v1 + 12.0 * v0) * t - (3.0 * a0 - a1) * t2) / (2.0 * t3),
        (30.0 * (q0 - q1) + (14.0 * v1 + 16.0 * v0) * t + (3.0 * a0 - 2.0 * a1) * t2) / (2.0 * t3 * t),
        (12.0 * (q1 - q0) - 6.0 * (v1 + v0) * t + (a1 - a0) * t2) / (2.0 * t3 * t2),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn eval(c: &[Real; 6], s: Real) -> (Real, Real, Real) {
        let q = (0..6).map(|i| c[i] * s.powi(i as i32)).sum();
        let v = (1..6).map(|i| i as Real * c[i] * s.powi(i as i32 - 1)).sum();
        let a = (2..6).map(|i| (i * (i - 1)) as Real * c[i] * s.powi(i as i32 - 2)).sum();
        (q, v, a)
    }

    #[test]
    fn splines_meet_their_boundary_conditions() {
        let t = 1.7;
        let c = cubic(0.3, -0.2, 1.1, 0.5, t);
        let (q, v, _) = eval(&c, 0.0);
        assert!((q - 0.3).abs() < 1e-12 && (v + 0.2).abs() < 1e-12);
        let (q, v, _) = eval(&c, t);
        assert!((q - 1.1).abs() < 1e-12 && (v - 0.5).abs() < 1e-12);
        let c = quintic(0.3, -0.2, 0.7, 1.1, 0.5, -0.4, t);
        let (q, v, a) = eval(&c, 0.0);
        assert!((q - 0.3).abs() < 1e-12 && (v + 0.2).abs() < 1e-12 && (a - 0.7).abs() < 1e-12);
        let (q, v, a) = eval(&c, t);
        assert!((q - 1.1).abs() < 1e-12 && (v - 0.5).abs() < 1e-12 && (a + 0.4).abs() < 1e-12, "{q} {v} {a}");
    }
}

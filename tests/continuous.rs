//! Floors 9-10 (motion bounds; the CCD pipeline, the certifier, the clearance search):
//! the continuous checks and the bounds they share, each against dense sampling of the
//! discrete distance or contact, brute force, or closed forms.
//!
//! One test binary for the floors; one suite per file under `tests/continuous/`,
//! sharing `tests/common`.
mod common;

mod continuous {
    /// The elementary equations and the interval Newton step.
    mod ccd_elementary;
    /// The certifier's orbit tests against brute force and closed forms.
    mod certifier_orbits;
    /// The minimum clearance against dense sampling.
    mod clearance;
    /// Conservative advancement's "apart" against sampled distances.
    mod conservative_advancement;
    /// The joints' levers bound how far an element and a pair's distance move.
    mod joint_levers;
    /// The depth of each contact event against closed forms and dense maxima.
    mod penetration_events;
    /// The articulated CCD pipeline on random worlds against dense sampling.
    mod pipeline_properties;
    /// The gap to second order against the densely sampled gap.
    mod second_order_gap;
}

//! The affine-ball certifier of Schröcker & Weber 2013: proven collision-free
//! verdicts. A link's motion over a time interval is a curve in the 12-dimensional space
//! of affine maps; with the link's object-oriented metric ([`metric`], §2) it lies in a
//! ball of radius R around one pose ([`motion_ball`], §5). Every point x of the link
//! then stays within R·ϱ(x) of where that pose puts it (ϱ the distortion rate), so the
//! orbits of vertices, edges and faces are balls and hyperboloids ([`orbit`], §3-4).
//! The driver ([`certify`]) subdivides time until every pair is excluded or the
//! tolerance of equation 11 is reached (§6).
//!
//! Soundness: a pair is excluded on a time cell only where its orbits, from balls that
//! hold the pose enclosures (rounded outwards), are proven apart over the whole cell; a
//! pair that reaches the tolerance without that proof is left unproven, never reported
//! free.
pub mod certify;
pub mod metric;
pub mod motion_ball;
pub mod orbit;

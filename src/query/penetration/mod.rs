//! Penetration depth (seed 004, Keerthi and Sridharan).

//! The embedded demo: its verdicts, against times found independently with pinocchio
//! and coal by dense sampling plus bisection (`scripts/make_demo_assets.py --verify`).
use ccd_guard::check::sampled::{SampledOptions, check_sampled};
use ccd_guard::check::{DecidedBy, Verdict};
use ccd_guard::collision::StateChecker;
use ccd_guard::demo::{CASES, case_input};

use crate::common::cli::ccd_guard;
use crate::common::demo::demo;

fn options(resolution: f64) -> SampledOptions {
    SampledOptions { resolution, ..SampledOptions::default() }
}

#[test]
fn every_waypoint_but_the_intended_one_is_free() {
    for case in &CASES {
        let input = case_input(case).unwrap();
        let mut checker = StateChecker::new(&input.world);
        for (k, q) in input.motion.waypoints.iter().enumerate() {
            let contacts = checker.contacts(q, false);
            let intended = case.name == "collide" && k == 2;
            assert_eq!(!contacts.is_empty(), intended, "{} waypoint {k}: {contacts:?}", case.name);
        }
    }
}

#[test]
fn sampled_verdicts_at_the_default_resolution() {
    let [free, collide, thin] = &CASES;
    assert_eq!(check_sampled(&case_input(free).unwrap(), &options(0.01)).verdict, Verdict::Uncertain);
    let r = check_sampled(&case_input(collide).unwrap(), &options(0.01));
    assert_eq!(r.verdict, Verdict::Collision);
    // coal: first contact at 3.4870 s, gripper finger against the box; a sample can only
    // find it later, by less than one step.
    let t = r.time_of_contact.unwrap();
    assert!((3.4870..3.4870 + 0.01).contains(&t), "{t}");
    assert_eq!((r.contacts[0].link.as_str(), r.contacts[0].other.as_str()), ("gripper", "box"));
    assert_eq!(r.segment_index, Some(1));
    // The thin board lies between two 0.01 rad samples.
    let r = check_sampled(&case_input(thin).unwrap(), &options(0.01));
    assert_eq!(r.verdict, Verdict::Uncertain, "{r:?}");
}

#[test]
fn dense_sampling_finds_the_thin_board() {
    let r = check_sampled(&case_input(&CASES[2]).unwrap(), &options(5e-4));
    assert_eq!(r.verdict, Verdict::Collision);
    // coal, dense sampling plus bisection: first contact at 3.14051 s, finger vs board.
    let t = r.time_of_contact.unwrap();
    assert!((3.14050..3.1425).contains(&t), "{t}");
    assert_eq!(r.contacts[0].other, "shelf_board");
    assert!(r.contacts[0].time_of_separation.is_some());
}

#[test]
fn the_pipeline_catches_the_thin_board_and_agrees_with_coal() {
    use ccd_guard::ccd::PipelineOptions;
    use ccd_guard::check::pipeline_method::check_pipeline;
    let run = |i: usize| check_pipeline(&case_input(&CASES[i]).unwrap(), &PipelineOptions::default(), 0.001).0;
    assert_eq!(run(0).verdict, Verdict::CollisionFree);
    // coal, dense sampling (1e-4 rad) plus bisection: 3.4870 s, gripper vs box.
    let r = run(1);
    assert_eq!(r.verdict, Verdict::Collision);
    let t = r.time_of_contact.unwrap();
    assert!((t - 3.4870).abs() < 5e-4, "{t}");
    assert_eq!((r.contacts[0].link.as_str(), r.contacts[0].other.as_str()), ("gripper", "box"));
    // coal: 3.14051 s, finger vs the 3 mm board, between two free waypoints.
    let r = run(2);
    assert_eq!(r.verdict, Verdict::Collision);
    let t = r.time_of_contact.unwrap();
    assert!((t - 3.14051).abs() < 5e-5, "{t}");
    assert_eq!(r.contacts[0].other, "shelf_board");
    let n = r.contacts[0].normal.expect("a normal");
    assert!((n[0] * n[0] + n[1] * n[1] + n[2] * n[2] - 1.0).abs() < 1e-9);
}

/// The default method: the pipeline finds the contacts; the free trajectory, which
/// keeps its links 2 cm from everything, is proven free by the clearance search's bounds
/// alone (`decided_by: clearance`); where the tolerance asks for more than those bounds
/// prove (each pair at least half the tolerance apart), the certifier decides.
#[test]
fn certified_verdicts_and_who_decided() {
    use ccd_guard::ccd::PipelineOptions;
    use ccd_guard::certifier::certify::CertifyOptions;
    use ccd_guard::check::certified_method::check_certified;
    let [free, collide, thin] = &CASES;
    let check_with = |case, tolerance| {
        check_certified(&case_input(case).unwrap(), &PipelineOptions::default(), &CertifyOptions { tolerance, ..CertifyOptions::default() }, true)
    };
    let check = |case| check_with(case, CertifyOptions::default().tolerance).report;
    let outcome = check_with(free, CertifyOptions::default().tolerance);
    let r = &outcome.report;
    assert_eq!((r.verdict, r.certified, r.decided_by), (Verdict::CollisionFree, true, Some(DecidedBy::Clearance)));
    let clearance = outcome.clearance.and_then(|c| c.combined()).expect("a clearance").closest.distance;
    // A tolerance of three times the clearance: no pair is proven half of it apart, and
    // the certifier names the pair it cannot prove free within it.
    let r = check_with(free, 3.0 * clearance).report;
    assert_eq!((r.verdict, r.certified, r.decided_by), (Verdict::Uncertain, false, Some(DecidedBy::Certifier)));
    assert!(r.unproven.is_some());
    for (case, toc) in [(collide, 3.4870), (thin, 3.1405)] {
        let r = check(case);
        assert_eq!((r.verdict, r.certified, r.decided_by), (Verdict::Collision, false, Some(DecidedBy::Pipeline)));
        assert!((r.time_of_contact.unwrap() - toc).abs() < 1e-3, "{:?}", r.time_of_contact);
    }
}

/// `--stats` at the command line: the pipeline's stages (and the certifier's counts)
/// after the report, in text and in JSON; for a free motion that the clearance search
/// proves apart, a line saying the pipeline ran on no segment.
#[test]
fn stats_at_the_command_line() {
    let run = |trajectory: &str, extra: &[&str]| {
        let out = ccd_guard()
            .args(["check", "--urdf"])
            .arg(demo("robot.urdf"))
            .arg("--srdf")
            .arg(demo("robot.srdf"))
            .arg("--scene")
            .arg(demo("scene.yaml"))
            .arg("--trajectory")
            .arg(demo(trajectory))
            .arg("--stats")
            .args(extra)
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let text = run("traj_collide.yaml", &["--format", "text"]);
    assert!(text.contains("stage 1 (swept AABB BVH): kept") && text.contains("stage 3 (exact):"), "{text}");
    let json: serde_json::Value = serde_json::from_str(&run("traj_collide.yaml", &[])).unwrap();
    assert!(json["stats"]["segments"].as_u64().is_some_and(|n| n > 0), "{json}");
    assert_eq!(json["verdict"], "collision");
    let free = run("traj_free.yaml", &["--format", "text"]);
    assert!(free.contains("collision_free (certified)") && free.contains("the pipeline ran on no segment"), "{free}");
    let by_pipeline = run("traj_free.yaml", &["--format", "text", "--method", "pipeline"]);
    assert!(by_pipeline.contains("stage 3 (exact):"), "{by_pipeline}");
}

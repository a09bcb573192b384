//! Damaged bags: a truncated or corrupt file gives the plans before the damage, one line
//! on stderr naming the file and where, and exit status 2; mutated bags (bytes flipped,
//! cut anywhere, spliced) never panic or hang.
use super::audit_verdicts::demo_settings;
use super::recording::{DEMO_VERDICTS, Recording, SECOND, T0, demo_args, demo_recording, intruder, short_recording};
use crate::common::cli::{ccd_guard, run};
use crate::common::demo::demo_trajectory;
use crate::common::mutate::mutate;
use crate::common::rng::Lcg64;
use ccd_guard::bag::audit::Auditor;
use ccd_guard::moveit::msg;
use std::time::{Duration, Instant};

#[test]
fn a_truncated_bag_gives_the_plans_before_the_damage_and_one_line_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    for name in ["cut.mcap", "cut.db3"] {
        let whole = dir.path().join(format!("whole_{name}"));
        match name {
            "cut.mcap" => demo_recording().write_mcap(&whole),
            _ => demo_recording().write_sqlite(&whole),
        }
        let bytes = std::fs::read(&whole).unwrap();
        let cut = dir.path().join(name);
        // MCAP: inside the chunk of the last plan (the undecodable one); SQLite: halfway.
        let at = match name {
            "cut.mcap" => bytes.windows(8).position(|w| w == [0, 1, 0, 0, 0xff, 0xff, 0xff, 0x7f]).expect("the last plan's bytes"),
            _ => bytes.len() / 2,
        };
        std::fs::write(&cut, &bytes[..at]).unwrap();
        let (code, stdout, stderr) = run(ccd_guard().arg("audit").arg(&cut).args(demo_args()).args(["--format", "json"]));
        assert_eq!(code, 2, "{name}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{name}: {stderr}");
        assert!(stderr.contains(&cut.display().to_string()) && stderr.contains("damaged at"), "{stderr}");
        let lines: Vec<serde_json::Value> = stdout.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
        let plans = &lines[..lines.len() - 1];
        for (k, plan) in plans.iter().enumerate() {
            assert_eq!(plan["report"]["verdict"], DEMO_VERDICTS[k], "{name}: the plans before the damage, checked");
        }
        assert!(plans.len() < DEMO_VERDICTS.len());
        if name == "cut.mcap" {
            assert!(!plans.is_empty(), "the plans before the damage are printed");
        }
        assert_eq!(lines.last().unwrap()["summary"]["plans"], plans.len());
    }
}

#[test]
fn what_is_not_a_bag_is_refused_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let text = dir.path().join("notes.txt");
    std::fs::write(&text, "not a bag").unwrap();
    let empty = dir.path().join("empty_folder");
    std::fs::create_dir(&empty).unwrap();
    let garbage = dir.path().join("garbage.mcap");
    std::fs::write(&garbage, b"\x89MCAP0\r\n but not really").unwrap();
    let bad_metadata = dir.path().join("bad_metadata");
    std::fs::create_dir(&bad_metadata).unwrap();
    std::fs::write(bad_metadata.join("metadata.yaml"), "rosbag2_bagfile_information: [").unwrap();
    for bag in [dir.path().join("missing.mcap"), text, empty, garbage, bad_metadata] {
        let (code, stdout, stderr) = run(ccd_guard().arg("audit").arg(&bag).args(demo_args()).args(["--format", "json"]));
        assert_eq!(code, 2, "{}", bag.display());
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.starts_with("ccd_guard audit: ") && stderr.contains(&bag.display().to_string()), "{stderr}");
        assert!(stdout.lines().count() <= 1, "at most the summary: {stdout}");
    }
}

/// 10^4 mutated bags (half MCAP with compressed chunks, half SQLite): each audit ends, with or without damage,
/// and never panics. One auditor serves them all (the robot loaded once).
#[test]
fn mutated_bags_never_panic_or_hang() {
    let dir = tempfile::tempdir().unwrap();
    let mcap_path = dir.path().join("seed.mcap");
    let db3_path = dir.path().join("seed.db3");
    short_recording().write_mcap_zstd(&mcap_path);
    short_recording().write_sqlite(&db3_path);
    let seeds = [std::fs::read(&mcap_path).unwrap(), std::fs::read(&db3_path).unwrap()];
    let mut auditor = Auditor::new(&demo_settings(1)).unwrap();
    let mut rng = Lcg64::new(0x000a_0d17_ba65);
    let (mut damaged, mut plans, mut slowest) = (0, 0, Duration::ZERO);
    for case in 0..10_000 {
        let (seed, ext) = if case % 2 == 0 { (&seeds[0], "mcap") } else { (&seeds[1], "db3") };
        let mut bytes = seed.clone();
        mutate(&mut rng, &seeds[..], &mut bytes);
        let path = dir.path().join(format!("case.{ext}"));
        std::fs::write(&path, &bytes).unwrap();
        let started = Instant::now();
        let summary = auditor.audit(std::slice::from_ref(&path), |_| {});
        slowest = slowest.max(started.elapsed());
        damaged += usize::from(!summary.damaged.is_empty());
        plans += summary.plans;
        assert!(summary.plans <= 64, "case {case}: {} plans", summary.plans);
    }
    assert!(slowest < Duration::from_secs(20), "a case took {slowest:?}");
    assert!(damaged > 1000 && plans > 5_000, "the mutations reach both the damage and the plans: {damaged} damaged, {plans} plans");
}

/// A bit flipped inside an MCAP chunk (an obstacle moved) is damage, seen by the chunk's
/// CRC before any of its messages is used: never a certified verdict over it.
#[test]
fn a_flipped_bit_in_a_chunk_is_damage_not_a_moved_obstacle() {
    let dir = tempfile::tempdir().unwrap();
    let t = |s: u64| T0 + s * SECOND;
    let mut r = Recording::default();
    let mut aside = intruder(msg::CollisionObject::ADD);
    aside.primitive_poses[0].position.x = 7.25;
    r.add("/collision_object", t(1), &aside);
    r.add("/planned_trajectory", t(2), &demo_trajectory("traj_free.yaml"));
    let bag = dir.path().join("flipped.mcap");
    r.write_mcap(&bag);
    let mut bytes = std::fs::read(&bag).unwrap();
    // The box's x (7.25) as it stands in the CDR: flip a bit of its exponent.
    let at = bytes.windows(8).position(|w| w == 7.25f64.to_le_bytes()).expect("the box's x in the file");
    bytes[at + 7] ^= 0x01;
    std::fs::write(&bag, &bytes).unwrap();
    let (code, stdout, stderr) = run(ccd_guard().arg("audit").arg(&bag).args(demo_args()).args(["--format", "json"]));
    assert_eq!(code, 2, "{stdout} {stderr}");
    assert!(stderr.contains("damaged at") && stderr.to_lowercase().contains("crc"), "{stderr}");
    assert!(!stdout.contains(r#""certified":true"#), "{stdout}");
}

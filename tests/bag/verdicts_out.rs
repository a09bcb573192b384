//! `--mcap-out`: one verdict per plan at the plan's bag time, and the markers of the
//! colliding ones, read back with the `mcap` crate and decoded as the node's messages.
use super::recording::{DEMO_VERDICTS, demo_args, demo_recording};
use crate::common::cli::{ccd_guard, run};
use ccd_guard::moveit::cdr::from_cdr;
use ccd_guard::moveit::msg;

#[test]
fn the_verdicts_file_holds_a_verdict_per_plan_at_its_bag_time() {
    let dir = tempfile::tempdir().unwrap();
    let bag = dir.path().join("demo.mcap");
    let recording = demo_recording();
    recording.write_mcap(&bag);
    let out = dir.path().join("verdicts.mcap");
    let (code, _, stderr) = run(ccd_guard().arg("audit").arg(&bag).args(demo_args()).arg("--mcap-out").arg(&out));
    assert_eq!(code, 1, "{stderr}");
    let bytes = std::fs::read(&out).unwrap();
    let (mut verdicts, mut markers) = (Vec::new(), Vec::new());
    for message in mcap::MessageStream::new(&bytes).unwrap() {
        let message = message.unwrap();
        let schema = message.channel.schema.as_ref().unwrap();
        assert_eq!((schema.encoding.as_str(), message.channel.message_encoding.as_str()), ("ros2msg", "cdr"));
        match message.channel.topic.as_str() {
            "/ccd_guard/verdict" => {
                assert_eq!(schema.name, "ccd_guard/msg/CollisionVerdict");
                verdicts.push((message.log_time, from_cdr::<msg::CollisionVerdict>(&message.data).unwrap()));
            }
            "/ccd_guard/markers" => {
                assert_eq!(schema.name, "visualization_msgs/msg/MarkerArray");
                markers.push((message.log_time, from_cdr::<msg::MarkerArray>(&message.data).unwrap()));
            }
            other => panic!("topic {other}"),
        }
    }
    let names: Vec<&str> = verdicts.iter().map(|(_, v)| v.verdict.as_str()).collect();
    assert_eq!(names, DEMO_VERDICTS);
    let plan_times: Vec<u64> = recording.messages.iter().filter(|m| m.type_name.contains("Trajectory")).map(|m| m.time).collect();
    assert_eq!(verdicts.iter().map(|(t, _)| *t).collect::<Vec<_>>(), plan_times);
    for (time, verdict) in &verdicts {
        let stamp = &verdict.header.stamp;
        assert_eq!(stamp.sec as u64 * 1_000_000_000 + stamp.nanosec as u64, *time);
    }
    // The node publishes markers for every plan it could check (the swept bounds; the
    // contacts of the colliding ones).
    let checked: Vec<u64> = verdicts.iter().filter(|(_, v)| v.verdict != "invalid").map(|(t, _)| *t).collect();
    assert_eq!(markers.iter().map(|(t, _)| *t).collect::<Vec<_>>(), checked);
    let contact_markers = |m: &msg::MarkerArray| m.markers.iter().filter(|m| m.ns.contains("contact")).count();
    for ((_, verdict), (_, array)) in verdicts.iter().filter(|(_, v)| v.verdict != "invalid").zip(&markers) {
        assert_eq!(verdict.verdict == "collision", contact_markers(array) > 0, "{:?}", array.markers.iter().map(|m| &m.ns).collect::<Vec<_>>());
    }
}

//! Writes a rosbag2 bag (MCAP, Jazzy's layout) of MoveIt-like Panda plans in a changing
//! 20-object scene, for `ccd_guard audit` (see `benches/support/panda_plans_bag.rs`), and
//! prints what it wrote as JSON.
//!
//! ```text
//! cargo run --release --example panda_plans_bag -- OUT_BAG_DIR [--plans 1000] [--seed 7]
//!     [--objects 20] [--colliding-share 0.3] [--no-plans] [--static-scene]
//!     [--check-files DIR] [--octomap-gb 2] [--octomap-resolution 0.01] [--compression none|zstd|lz4]
//! cargo run --release --example panda_plans_bag -- --robot     # prints the Panda's URDF, SRDF, AMENT prefix
//! ```
//! `--check-files DIR`: per plan `DIR/plan_NNNN/{scene,trajectory,start}.yaml` for one
//! `ccd_guard check` each. `--octomap-gb G`: planning-scene diffs carrying ~10 MB octomaps
//! (a scanned room) until they add up to G GB. `--no-plans`: the same bag without its plans.
#[path = "../benches/support/panda_plans_bag.rs"]
mod panda_plans_bag;

use clap::Parser;
use panda_plans_bag::{BagSpec, OctomapSpec, panda_files, write_bag};
use std::io::Write;
use std::path::PathBuf;

#[derive(Parser)]
#[command(about = "Writes a rosbag2 bag of MoveIt-like Panda plans for `ccd_guard audit`")]
struct Args {
    /// The bag folder to write (replaced if it exists).
    bag: Option<PathBuf>,
    /// Print the Panda's URDF, SRDF and AMENT_PREFIX_PATH (one a line) and exit.
    #[arg(long)]
    robot: bool,
    #[arg(long, default_value_t = 1000)]
    plans: usize,
    #[arg(long, default_value_t = 7)]
    seed: u64,
    #[arg(long, default_value_t = 20)]
    objects: usize,
    #[arg(long, default_value_t = 0.3)]
    colliding_share: f64,
    /// Leave the plans out (everything else as with them).
    #[arg(long)]
    no_plans: bool,
    /// No scene changes between plans.
    #[arg(long)]
    static_scene: bool,
    /// Write each plan's `check` files under this folder.
    #[arg(long)]
    check_files: Option<PathBuf>,
    /// Add octomap diffs up to this many GB of octomap data.
    #[arg(long)]
    octomap_gb: Option<f64>,
    #[arg(long, default_value_t = 0.01)]
    octomap_resolution: f64,
    /// Half the side of the octomap's room (m).
    #[arg(long, default_value_t = 2.5)]
    octomap_half_side: f64,
    /// Write the room's octomap (first variant) as a `.bt` file here and exit.
    #[arg(long)]
    octomap_bt: Option<PathBuf>,
    /// Time, for one octomap message of the room: CDR encoding and decoding of the
    /// PlanningScene diff carrying it, and reading its stream into a voxel map (median of 5),
    /// and exit.
    #[arg(long)]
    time_octomap: bool,
    #[arg(long, default_value = "none")]
    compression: String,
}

fn main() -> Result<(), panda_plans_bag::BoxError> {
    let args = Args::parse();
    if args.robot {
        let files = panda_files();
        // A closed pipe (`| head -1`) is no error here.
        let _ = writeln!(std::io::stdout(), "{}\n{}\n{}", files.urdf.display(), files.srdf.display(), files.prefix.display());
        return Ok(());
    }
    let octomap =
        args.octomap_gb.map(|gb| OctomapSpec { total_bytes: (gb * 1e9) as u64, resolution: args.octomap_resolution, half_side: args.octomap_half_side });
    if let Some(path) = &args.octomap_bt {
        let spec = octomap.clone().unwrap_or_default();
        let room = panda_plans_bag::RoomOctomap::new(&OctomapSpec { resolution: args.octomap_resolution, half_side: args.octomap_half_side, ..spec }, 0);
        let (stream, nodes) = room.binary_stream();
        std::fs::write(path, room.bt_file(&stream, nodes))?;
        let map = ccd_guard::scene::octomap_stream::voxel_map_from_message(true, "OcTree", args.octomap_resolution, &stream)?;
        println!("{}", serde_json::json!({"bt": path, "stream_bytes": stream.len(), "nodes": nodes, "occupied_leaves": map.voxels().len()}));
        return Ok(());
    }
    if args.time_octomap {
        let spec = OctomapSpec { resolution: args.octomap_resolution, half_side: args.octomap_half_side, ..OctomapSpec::default() };
        println!("{}", panda_plans_bag::time_octomap_message(&spec)?);
        return Ok(());
    }
    let compression = match args.compression.as_str() {
        "none" => None,
        "zstd" => Some(mcap::Compression::Zstd),
        "lz4" => Some(mcap::Compression::Lz4),
        other => return Err(format!("--compression {other}: none, zstd or lz4").into()),
    };
    let bag = args.bag.ok_or("the bag folder to write is missing")?;
    let spec = BagSpec {
        plans: args.plans,
        seed: args.seed,
        objects: args.objects,
        colliding_share: args.colliding_share,
        include_plans: !args.no_plans,
        scene_changes: !args.static_scene,
        check_files: args.check_files,
        octomap,
        compression,
    };
    let started = std::time::Instant::now();
    let stats = write_bag(&bag, &spec)?;
    let mut value = serde_json::to_value(&stats)?;
    value["seconds_to_write"] = serde_json::json!(started.elapsed().as_secs_f64());
    println!("{}", serde_json::to_string_pretty(&value)?);
    Ok(())
}

//! Octomap occupancy trees read into [`VoxelMap`]s: the byte streams of OctoMap (Hornung et
//! al. 2013, "OctoMap: an efficient probabilistic 3D mapping framework based on octrees")
//! exactly as its C++ library writes them, in `.bt` and `.ot` files and in
//! `octomap_msgs/Octomap` messages. Only the `OcTree` type (log-odds occupancy) is read.
//!
//! Both streams are one pre-order walk of the octree from the root (depth 0) down to at most
//! depth 16, the children of a node in index order 0..7, where child `i` takes the upper half
//! of x when bit 0 of `i` is set, of y for bit 1 and of z for bit 2 (octomap's `computeChildIdx`):
//! - binary (`writeBinaryData`; `.bt` files, `binary: true` messages): two bytes per inner node,
//!   children 0-3 in the first and 4-7 in the second, child `i` in the bit pair (`2i`, `2i + 1`)
//!   of its byte (bit 0 the least significant): (0, 0) no child (unknown), (0, 1) an occupied
//!   leaf, (1, 0) a free leaf, (1, 1) an inner node, whose own two bytes come after the bytes of
//!   the subtrees of the inner children before it.
//! - full (`writeData`; `.ot` files, `binary: false` messages): per node its log-odds (`f32`,
//!   little-endian as written on every platform ROS runs on) and one byte whose bit `i` says
//!   that child `i` exists, then the subtrees of the existing children.
//!
//! Occupancy, as octomap's `isNodeOccupied` with its default threshold (probability 0.5,
//! log-odds 0): a leaf is occupied when its log-odds is `>= 0` (a NaN is an error here).
//! Leaves of a binary stream were written occupied or free by that same rule. A node without
//! children is a leaf of its depth's size, `2^(16 - depth)` finest keys per edge (pruned inner
//! nodes). Only occupied leaves become voxels: free and unknown space are free, as in MoveIt and
//! FCL.
//!
//! Corner cases follow octomap's `readBinaryNode`: inner nodes "default to occupied", so a
//! binary stream whose root has no children (two zero bytes) is one occupied leaf filling the
//! whole key cube, while an inner child (1, 1) without children takes the maximum log-odds of
//! none (`-FLT_MAX`): free. An empty stream is an empty tree (octomap_msgs reads nothing then).
//!
//! Where octomap does not check, we do: a stream that ends inside a node, a node with children
//! at depth 16 and a NaN log-odds are errors. Bytes after the tree are ignored, as octomap does:
//! its readers stop at the tree's end and leave the rest of the stream unread.
//!
//! Memory is proportional to the data's length (at most four voxels per byte of a binary
//! stream, one per five bytes of a full one); the `size` header is checked, never trusted for
//! allocation. The walk keeps an explicit stack of at most 17 nodes.
use crate::math::Real;
use crate::shape::{TREE_DEPTH, Voxel, VoxelMap, VoxelMapError};
use std::path::{Path, PathBuf};

/// The first line of a binary (`.bt`) file (`AbstractOccupancyOcTree::binaryFileHeader`).
pub const BINARY_FILE_HEADER: &str = "# Octomap OcTree binary file";
/// The first line of a full (`.ot`) file (`AbstractOcTree::fileHeader`).
pub const FULL_FILE_HEADER: &str = "# Octomap OcTree file";
/// The only tree type read: log-odds occupancy nodes (`OcTree::getTreeType`).
pub const OCTREE_ID: &str = "OcTree";

/// Why an octomap could not be read. Byte offsets count from the start of the file (or of the
/// message's data).
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum OctomapError {
    #[error("stream truncated at byte {at}: a node of {needed} bytes starts there, {left} remain")]
    Truncated { at: usize, needed: usize, left: usize },
    #[error("the node at byte {at} has children at depth 17: octomap trees are at most 16 levels deep")]
    TooDeep { at: usize },
    #[error("the node at byte {at} has a NaN log-odds")]
    NanLogOdds { at: usize },
    #[error("not an octomap file: the first line {first_line:?} is neither '{BINARY_FILE_HEADER}' (.bt) nor '{FULL_FILE_HEADER}' (.ot)")]
    NotOctomap { first_line: String },
    #[error("header line {line}: {message}")]
    BadHeader { line: usize, message: String },
    #[error("tree type '{0}' is not read: only '{OCTREE_ID}' (log-odds occupancy) is")]
    UnknownId(String),
    #[error("resolution {0} must be positive and finite")]
    BadResolution(f64),
    #[error("the header says {expected} nodes but the tree holds {found} (octomap's 'Tree size mismatch')")]
    SizeMismatch { expected: u64, found: usize },
    #[error("cannot read {}: {message}", path.display())]
    Io { path: PathBuf, message: String },
    #[error(transparent)]
    Map(#[from] VoxelMapError),
}

/// A decoded stream: its occupied leaves, in stream order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DecodedTree {
    pub voxels: Vec<Voxel>,
    /// Nodes of the tree, inner and leaves (octomap's `size()`; 0 for an empty stream).
    pub nodes: usize,
    /// Bytes the tree took; what follows is ignored.
    pub bytes: usize,
}

/// One node on the walk's stack: its key corner, depth and the children still to visit.
#[derive(Clone, Copy, Default)]
struct Frame {
    min: [u16; 3],
    depth: u8,
    pending: u8,
}

/// The walk of a stream's nodes in pre-order, on a fixed stack (a tree has at most 17
/// levels).
#[derive(Default)]
struct PreOrder {
    stack: [Frame; TREE_DEPTH as usize + 1],
    top: usize,
}

impl PreOrder {
    /// A node whose children (`pending`) are still to come.
    fn push(&mut self, frame: Frame) {
        self.stack[self.top] = frame;
        self.top += 1;
    }

    /// (corner, depth) of the next node in pre-order: the first pending child of the
    /// deepest node that has one.
    fn next(&mut self) -> Option<([u16; 3], u8)> {
        while self.top > 0 {
            let frame = &mut self.stack[self.top - 1];
            if frame.pending == 0 {
                self.top -= 1;
            } else {
                let i = frame.pending.trailing_zeros() as u8;
                frame.pending &= frame.pending - 1;
                return Some((child_min(frame.min, frame.depth + 1, i), frame.depth + 1));
            }
        }
        None
    }
}

/// The corner of child `i` (at `depth`, 1..=16) of the node with corner `min`.
fn child_min(min: [u16; 3], depth: u8, i: u8) -> [u16; 3] {
    let size = 1u32 << (TREE_DEPTH - depth);
    std::array::from_fn(|k| (min[k] as u32 + ((i as u32 >> k) & 1) * size) as u16)
}

fn take<const N: usize>(data: &[u8], pos: &mut usize, base: usize) -> Result<[u8; N], OctomapError> {
    match data.get(*pos..*pos + N) {
        Some(bytes) => {
            *pos += N;
            Ok(bytes.try_into().expect("N bytes"))
        }
        None => Err(OctomapError::Truncated { at: base + *pos, needed: N, left: data.len() - *pos }),
    }
}

/// Decodes a `writeBinaryData` stream; `base` is the offset of `data` in what errors name.
fn decode_binary(data: &[u8], base: usize) -> Result<DecodedTree, OctomapError> {
    let mut tree = DecodedTree::default();
    if data.is_empty() {
        return Ok(tree);
    }
    let mut walk = PreOrder::default();
    let mut pos = 0;
    // (corner, depth) of the node whose two bytes come next.
    let mut next = Some(([0u16; 3], 0u8));
    while let Some((min, depth)) = next.take() {
        let at = pos;
        let [low, high] = take::<2>(data, &mut pos, base)?;
        let bits = low as u16 | (high as u16) << 8;
        // Every other node is counted with its parent's bytes.
        if depth == 0 {
            tree.nodes += 1;
        }
        if bits != 0 && depth == TREE_DEPTH {
            return Err(OctomapError::TooDeep { at: base + at });
        }
        if bits == 0 && depth == 0 {
            // readBinaryNode: "inner nodes default to occupied"; the root keeps that value.
            tree.voxels.push(Voxel { min, level: TREE_DEPTH });
        }
        let mut inner = 0u8;
        for i in 0..8u8 {
            match (bits >> (2 * i)) & 3 {
                0 => continue,
                1 => {}
                2 => tree.voxels.push(Voxel { min: child_min(min, depth + 1, i), level: TREE_DEPTH - depth - 1 }),
                _ => inner |= 1 << i,
            }
            tree.nodes += 1;
        }
        walk.push(Frame { min, depth, pending: inner });
        next = walk.next();
    }
    tree.bytes = pos;
    Ok(tree)
}

/// Decodes a `writeData` stream of `OcTree` nodes; `base` as in [`decode_binary`].
fn decode_full(data: &[u8], base: usize) -> Result<DecodedTree, OctomapError> {
    let mut tree = DecodedTree::default();
    if data.is_empty() {
        return Ok(tree);
    }
    let mut walk = PreOrder::default();
    let mut pos = 0;
    let mut next = Some(([0u16; 3], 0u8));
    while let Some((min, depth)) = next.take() {
        let at = pos;
        let [a, b, c, d, children] = take::<5>(data, &mut pos, base)?;
        let log_odds = f32::from_le_bytes([a, b, c, d]);
        tree.nodes += 1;
        if log_odds.is_nan() {
            return Err(OctomapError::NanLogOdds { at: base + at });
        }
        if children == 0 {
            if log_odds >= 0.0 {
                tree.voxels.push(Voxel { min, level: TREE_DEPTH - depth });
            }
        } else if depth == TREE_DEPTH {
            return Err(OctomapError::TooDeep { at: base + at });
        } else {
            walk.push(Frame { min, depth, pending: children });
        }
        next = walk.next();
    }
    tree.bytes = pos;
    Ok(tree)
}

/// Decodes a raw stream (no header): `writeBinaryData` when `binary`, else `writeData`.
pub fn decode_stream(binary: bool, data: &[u8]) -> Result<DecodedTree, OctomapError> {
    if binary { decode_binary(data, 0) } else { decode_full(data, 0) }
}

fn check_resolution(resolution: f64) -> Result<Real, OctomapError> {
    if resolution.is_finite() && resolution > 0.0 { Ok(resolution) } else { Err(OctomapError::BadResolution(resolution)) }
}

/// The map of an `octomap_msgs/Octomap` message: `data` is the raw stream, binary or full as
/// `binary` says; `id` must be `OcTree`.
pub fn voxel_map_from_message(binary: bool, id: &str, resolution: f64, data: &[u8]) -> Result<VoxelMap, OctomapError> {
    if id != OCTREE_ID {
        return Err(OctomapError::UnknownId(id.to_string()));
    }
    let resolution = check_resolution(resolution)?;
    let tree = decode_stream(binary, data)?;
    Ok(VoxelMap::new(resolution, tree.voxels)?)
}

/// What an octomap file's header says (`AbstractOcTree::readHeader`).
#[derive(Clone, Debug, PartialEq)]
pub struct OctomapHeader {
    /// `.bt` (binary stream) or `.ot` (full stream), by the first line.
    pub binary: bool,
    pub id: String,
    pub size: u64,
    pub resolution: f64,
    /// Where the stream starts: after the line holding `data`.
    pub data_offset: usize,
}

/// Reads the header as octomap does: the first line names the format, then whitespace
/// separated tokens: `id NAME`, `size N`, `res R`, comments from `#` to the end of the line,
/// unknown keywords skipped to the end of their line (octomap warns), until `data`, whose line
/// ends the header. `id 1` is octomap's deprecated name of `OcTree`.
pub fn parse_header(bytes: &[u8]) -> Result<OctomapHeader, OctomapError> {
    let first_end = bytes.iter().position(|&c| c == b'\n').unwrap_or(bytes.len());
    let first = &bytes[..first_end];
    let binary = if first.starts_with(BINARY_FILE_HEADER.as_bytes()) {
        true
    } else if first.starts_with(FULL_FILE_HEADER.as_bytes()) {
        false
    } else {
        let shown: String = String::from_utf8_lossy(&first[..first.len().min(60)]).into();
        return Err(OctomapError::NotOctomap { first_line: shown });
    };
    let mut pos = (first_end + 1).min(bytes.len());
    let line_of = |pos: usize| 1 + bytes[..pos].iter().filter(|&&c| c == b'\n').count();
    let skip_line = |pos: &mut usize| {
        *pos = bytes[*pos..].iter().position(|&c| c == b'\n').map_or(bytes.len(), |p| *pos + p + 1);
    };
    // The next whitespace-delimited token (C++ `>>` into a string), if any.
    // C's isspace: space, \t, \n, \v, \f, \r.
    let space = |c: u8| c == b' ' || (0x09..=0x0d).contains(&c);
    let token = |pos: &mut usize| -> Option<(usize, &[u8])> {
        while *pos < bytes.len() && space(bytes[*pos]) {
            *pos += 1;
        }
        let start = *pos;
        while *pos < bytes.len() && !space(bytes[*pos]) {
            *pos += 1;
        }
        (*pos > start).then(|| (start, &bytes[start..*pos]))
    };
    let bad = |at: usize, message: String| OctomapError::BadHeader { line: line_of(at), message };
    let (mut id, mut size, mut resolution) = (None::<String>, 0u64, None::<f64>);
    let data_line = loop {
        let Some((at, word)) = token(&mut pos) else {
            return Err(bad(pos, "the header ends without its 'data' line".into()));
        };
        let mut value = |what: &str| -> Result<String, OctomapError> {
            match token(&mut pos) {
                Some((_, v)) => Ok(String::from_utf8_lossy(v).into_owned()),
                None => Err(bad(at, format!("'{what}' without a value"))),
            }
        };
        match word {
            b"data" => {
                skip_line(&mut pos);
                break line_of(at);
            }
            b"id" => id = Some(value("id")?),
            b"size" => {
                let v = value("size")?;
                size = v.parse().map_err(|_| bad(at, format!("size '{v}' is not a node count")))?;
            }
            b"res" => {
                let v = value("res")?;
                resolution = Some(v.parse().map_err(|_| bad(at, format!("res '{v}' is not a number")))?);
            }
            w if w.starts_with(b"#") => skip_line(&mut pos),
            w => {
                log::warn!("octomap header line {}: unknown keyword '{}' skipped", line_of(at), String::from_utf8_lossy(w));
                skip_line(&mut pos);
            }
        }
    };
    let mut id = id.ok_or_else(|| OctomapError::BadHeader { line: data_line, message: "no 'id' before 'data'".into() })?;
    if id == "1" {
        id = OCTREE_ID.into();
    }
    let resolution = check_resolution(resolution.unwrap_or(0.0))?;
    Ok(OctomapHeader { binary, id, size, resolution, data_offset: pos })
}

/// The map of an octomap file's bytes, `.bt` or `.ot` as its first line says. As octomap
/// reads them: a `size` of 0 is an empty map whatever follows; a `.bt` file whose tree does not
/// hold `size` nodes is an error (`readBinary`), while a `.ot` file's size is only compared
/// with a warning (`AbstractOcTree::read` does not check it).
pub fn voxel_map_from_bytes(bytes: &[u8]) -> Result<VoxelMap, OctomapError> {
    let header = parse_header(bytes)?;
    if header.id != OCTREE_ID {
        return Err(OctomapError::UnknownId(header.id));
    }
    if header.size == 0 {
        return Ok(VoxelMap::new(header.resolution, Vec::new())?);
    }
    let data = &bytes[header.data_offset..];
    if data.is_empty() {
        return Err(OctomapError::Truncated { at: header.data_offset, needed: if header.binary { 2 } else { 5 }, left: 0 });
    }
    let tree = if header.binary { decode_binary(data, header.data_offset)? } else { decode_full(data, header.data_offset)? };
    if tree.nodes as u64 != header.size {
        if header.binary {
            return Err(OctomapError::SizeMismatch { expected: header.size, found: tree.nodes });
        }
        log::warn!("octomap file: the header says {} nodes, the tree holds {}", header.size, tree.nodes);
    }
    Ok(VoxelMap::new(header.resolution, tree.voxels)?)
}

/// The map of an octomap file (`.bt` or `.ot`, told by its first line, not its extension).
pub fn voxel_map_from_file(path: &Path) -> Result<VoxelMap, OctomapError> {
    let bytes = std::fs::read(path).map_err(|e| OctomapError::Io { path: path.to_path_buf(), message: e.to_string() })?;
    voxel_map_from_bytes(&bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn voxel(min: [u16; 3], level: u8) -> Voxel {
        Voxel { min, level }
    }

    fn full_node(log_odds: f32, children: u8) -> Vec<u8> {
        let mut v = log_odds.to_le_bytes().to_vec();
        v.push(children);
        v
    }

    #[test]
    fn octomap_binary_child_order_and_bit_pairs() {
        // Root: child 1 (+x) occupied (0,1) = bits 2..3 = 0b10; child 2 (+y) free; child 4 (+z)
        // inner, whose child 7 (+x+y+z) is occupied and child 0 inner with child 0 occupied.
        let root = [0b0001_1000u8, 0b0000_0011];
        let c4 = [0b0000_0011u8, 0b1000_0000];
        let c40 = [0b0000_0010u8, 0];
        let data = [root, c4, c40].concat();
        let tree = decode_stream(true, &data).unwrap();
        assert_eq!(tree.nodes, 1 + 3 + 2 + 1);
        assert_eq!(tree.bytes, 6);
        let mut voxels = tree.voxels;
        voxels.sort();
        let mut expected = vec![voxel([32768, 0, 0], 15), voxel([16384, 16384, 32768 + 16384], 14), voxel([0, 0, 32768], 13)];
        expected.sort();
        assert_eq!(voxels, expected);
        // Trailing bytes are ignored, as octomap leaves them unread.
        let longer = [data.clone(), vec![0xff; 5]].concat();
        assert_eq!(decode_stream(true, &longer).unwrap().bytes, 6);
    }

    #[test]
    fn octomap_binary_root_without_children_is_occupied_as_octomap_reads_it() {
        let tree = decode_stream(true, &[0, 0]).unwrap();
        assert_eq!(tree.voxels, vec![voxel([0; 3], 16)]);
        // An inner child without children is free (max log-odds of none).
        let tree = decode_stream(true, &[0b11, 0, 0, 0]).unwrap();
        assert_eq!((tree.voxels.len(), tree.nodes), (0, 2));
        assert_eq!(decode_stream(true, &[]).unwrap(), DecodedTree::default());
    }

    #[test]
    fn octomap_binary_errors_name_the_byte() {
        assert_eq!(decode_binary(&[0b11, 0], 100), Err(OctomapError::Truncated { at: 102, needed: 2, left: 0 }));
        assert_eq!(decode_binary(&[0b11], 0), Err(OctomapError::Truncated { at: 0, needed: 2, left: 1 }));
        // A chain of inner first children: the node at depth 16 may not have children.
        let mut chain = [0b11u8, 0].repeat(16);
        chain.extend([0b10, 0]);
        assert_eq!(decode_stream(true, &chain), Err(OctomapError::TooDeep { at: 32 }));
        chain.truncate(32);
        chain.extend([0, 0]);
        assert_eq!(decode_stream(true, &chain).unwrap().nodes, 17);
        chain.truncate(30);
        chain.extend([0b10, 0]);
        assert_eq!(decode_stream(true, &chain).unwrap().voxels, vec![voxel([0; 3], 0)]);
    }

    #[test]
    fn octomap_full_stream_leaves_and_threshold() {
        // Root with children 0, 3 and 6: leaves of log-odds 0 (occupied: >= threshold), -1e-6
        // (free) and an inner node with child 5 at 2.0 and child 1 at -inf.
        let data = [
            full_node(1.0, 0b0100_1001),
            full_node(0.0, 0),
            full_node(-1e-6, 0),
            full_node(2.0, 0b0010_0010),
            full_node(f32::NEG_INFINITY, 0),
            full_node(2.0, 0),
        ]
        .concat();
        let tree = decode_stream(false, &data).unwrap();
        assert_eq!((tree.nodes, tree.bytes), (6, 30));
        let s = 16384u16;
        assert_eq!(tree.voxels, vec![voxel([0, 0, 0], 15), voxel([s, 2 * s, 3 * s], 14)]);
        let root_leaf = decode_stream(false, &full_node(-0.0, 0)).unwrap();
        assert_eq!(root_leaf.voxels, vec![voxel([0; 3], 16)]);
        assert_eq!(decode_full(&data[..29], 7), Err(OctomapError::Truncated { at: 32, needed: 5, left: 4 }));
        assert_eq!(decode_stream(false, &full_node(f32::NAN, 0)), Err(OctomapError::NanLogOdds { at: 0 }));
        let mut chain = full_node(1.0, 1).repeat(17);
        chain.extend(full_node(1.0, 0));
        assert_eq!(decode_stream(false, &chain), Err(OctomapError::TooDeep { at: 80 }));
    }

    #[test]
    fn octomap_file_headers() {
        let body = [0b0000_1000u8, 0];
        let file = |head: &str| [head.as_bytes(), &body[..]].concat();
        let head =
            "# Octomap OcTree binary file\n# (feel free to add / change comments, but leave the first line as it is!)\n#\nid OcTree\nsize 2\nres 0.05\ndata\n";
        let map = voxel_map_from_bytes(&file(head)).unwrap();
        assert_eq!((map.resolution(), map.voxels()), (0.05, &[voxel([32768, 0, 0], 15)][..]));
        let odd = "# Octomap OcTree binary file\r\n  res   0.1 id 1\n# comment data\nfoo bar baz\nsize\n2 data trailing words\n";
        assert_eq!(voxel_map_from_bytes(&file(odd)).unwrap().resolution(), 0.1);
        let errors = [
            ("# Octomap OcTree binary file\nid OcTree\nsize 3\nres 0.05\ndata\n", OctomapError::SizeMismatch { expected: 3, found: 2 }),
            ("# Octomap OcTree binary file\nid ColorOcTree\nsize 2\nres 0.05\ndata\n", OctomapError::UnknownId("ColorOcTree".into())),
            ("# Octomap OcTree binary file\nid OcTree\nsize 2\nres 0\ndata\n", OctomapError::BadResolution(0.0)),
            ("# Octomap OcTree binary file\nid OcTree\nsize 2\nres inf\ndata\n", OctomapError::BadResolution(f64::INFINITY)),
            (
                "# Octomap OcTree binary file\nid OcTree\nsize two\nres 0.05\ndata\n",
                OctomapError::BadHeader { line: 3, message: "size 'two' is not a node count".into() },
            ),
            ("# Octomap OcTree binary file\nsize 2\nres 0.05\ndata\n", OctomapError::BadHeader { line: 4, message: "no 'id' before 'data'".into() }),
            (
                "# Octomap OcTree binary file\nid OcTree\nsize 2\nres 0.05\n",
                OctomapError::BadHeader { line: 5, message: "the header ends without its 'data' line".into() },
            ),
        ];
        for (head, error) in errors {
            let found = voxel_map_from_bytes(&file(head)).unwrap_err();
            assert_eq!(found, error, "{head:?}");
            assert!(!found.to_string().is_empty());
        }
        let no_value = OctomapError::BadHeader { line: 4, message: "'res' without a value".into() };
        assert_eq!(voxel_map_from_bytes(b"# Octomap OcTree binary file\nid OcTree\nsize 2\nres  \n").unwrap_err(), no_value);
        assert!(matches!(voxel_map_from_bytes(b"# Octomap OcTree binary"), Err(OctomapError::NotOctomap { .. })));
        assert!(matches!(voxel_map_from_bytes(b""), Err(OctomapError::NotOctomap { .. })));
        // Size 0: an empty map, whatever follows.
        let empty = voxel_map_from_bytes(b"# Octomap OcTree file\nid OcTree\nsize 0\nres 0.01\ndata\ngarbage").unwrap();
        assert!(empty.is_empty() && empty.resolution() == 0.01);
        // The full format, with a wrong size: read, as octomap does.
        let ot = [&b"# Octomap OcTree file\nid OcTree\nsize 9\nres 0.02\ndata\n"[..], &full_node(0.5, 0)].concat();
        assert_eq!(voxel_map_from_bytes(&ot).unwrap().voxels(), &[voxel([0; 3], 16)]);
        assert_eq!(voxel_map_from_bytes(&ot[..ot.len() - 1]).unwrap_err(), OctomapError::Truncated { at: 53, needed: 5, left: 4 });
    }

    #[test]
    fn octomap_messages() {
        let map = voxel_map_from_message(true, "OcTree", 0.05, &[0b0000_1000, 0]).unwrap();
        assert_eq!(map.voxels(), &[voxel([32768, 0, 0], 15)]);
        assert!(voxel_map_from_message(false, "OcTree", 0.05, &[]).unwrap().is_empty());
        assert_eq!(voxel_map_from_message(true, "ColorOcTree", 0.05, &[0, 0]).unwrap_err(), OctomapError::UnknownId("ColorOcTree".into()));
        assert_eq!(voxel_map_from_message(true, "OcTree", f64::NAN, &[0, 0]).unwrap_err().to_string(), "resolution NaN must be positive and finite");
    }
}

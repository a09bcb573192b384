//! MoveIt's `.scene` text (what the MoveIt scene panel saves; `PlanningScene::
//! saveGeometryToStream` writes it, `loadGeometryFromStream` reads it) as the collision
//! objects it describes, for the node's planning scene code to take in.
//!
//! The scene's name on the first line; then per object `* id`, its pose (position, then
//! quaternion x y z w), the number of shapes and each shape (keyword, its numbers, its pose
//! relative to the object, a colour), the number of subframes and each (name, pose); `.`
//! ends the scene. The older format (MoveIt 1 before Noetic) has no object pose and no
//! subframes; as MoveIt does, the first object's second line tells them apart (a pose
//! line has more than one number). Shapes: `box x y z`, `sphere r`, `cylinder r length`,
//! `cone r length`, `plane a b c d`, `mesh V T` then V vertices and T index triples.
use super::msg::{CollisionObject, Mesh, MeshTriangle, Plane, Point, Pose, Quaternion, SolidPrimitive};

/// Where and why a `.scene` text was refused (`line`: its line number, from 1; `what`:
/// the item the reader expected).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SceneTextError {
    #[error("the scene text is empty (its first line is the scene's name)")]
    Empty,
    #[error("the scene ends before {what} (a scene ends with '.')")]
    EndsEarly { what: String },
    #[error("line {line}: expected {what}, found object '* {id}'")]
    UnexpectedObject { line: usize, what: String, id: String },
    #[error("line {line}: {what} '{word}' is not a finite number")]
    NotANumber { line: usize, what: String, word: String },
    #[error("line {line}: {what} '{word}' is not a count")]
    NotACount { line: usize, what: String, word: String },
    #[error("line {line}: an object without an id")]
    ObjectWithoutId { line: usize },
    #[error("line {line}: expected '* id' or '.', found '{word}'")]
    ExpectedObject { line: usize, word: String },
    /// A mesh triangle's vertex `index`, not below the mesh's `vertices`.
    #[error("line {line}: vertex index {index} of '{id}' is not below {vertices}")]
    VertexIndex { line: usize, index: usize, id: String, vertices: usize },
    #[error("line {line}: unknown shape '{keyword}' in '{id}' (box, sphere, cylinder, cone, plane or mesh)")]
    UnknownShape { line: usize, keyword: String, id: String },
}

/// The words of the text after its first line, each with its line number; an object's
/// `* id` line as one word (ids may hold spaces).
struct Words<'t> {
    words: Vec<(usize, &'t str)>,
    at: usize,
}

enum Word<'t> {
    Object(&'t str),
    Token(&'t str),
}

impl<'t> Words<'t> {
    fn new(text: &'t str) -> Self {
        let mut words = Vec::new();
        for (k, line) in text.lines().enumerate().skip(1) {
            let trimmed = line.trim();
            if let Some(id) = trimmed.strip_prefix('*').filter(|rest| rest.is_empty() || rest.starts_with(char::is_whitespace)) {
                words.push((k + 1, "*"));
                words.push((k + 1, id.trim()));
            } else {
                words.extend(trimmed.split_whitespace().map(|w| (k + 1, w)));
            }
        }
        Self { words, at: 0 }
    }

    /// The line of the word read last.
    fn line(&self) -> usize {
        self.words.get(self.at.saturating_sub(1)).map_or(1, |w| w.0)
    }

    fn next(&mut self, what: &str) -> Result<Word<'t>, SceneTextError> {
        let (_, word) = *self.words.get(self.at).ok_or_else(|| SceneTextError::EndsEarly { what: what.to_string() })?;
        self.at += 1;
        if word == "*" {
            let id = self.words.get(self.at).map(|w| w.1).unwrap_or("");
            self.at += 1;
            return Ok(Word::Object(id));
        }
        Ok(Word::Token(word))
    }

    fn token(&mut self, what: &str) -> Result<&'t str, SceneTextError> {
        match self.next(what)? {
            Word::Token(t) => Ok(t),
            Word::Object(id) => Err(SceneTextError::UnexpectedObject { line: self.line(), what: what.to_string(), id: id.to_string() }),
        }
    }

    fn number(&mut self, what: &str) -> Result<f64, SceneTextError> {
        let t = self.token(what)?;
        t.parse::<f64>().ok().filter(|v| v.is_finite()).ok_or_else(|| SceneTextError::NotANumber {
            line: self.line(),
            what: what.to_string(),
            word: t.to_string(),
        })
    }

    fn count(&mut self, what: &str) -> Result<usize, SceneTextError> {
        let t = self.token(what)?;
        // A count bounded by what the text can still hold: no allocation from a bad number.
        t.parse::<usize>().ok().filter(|&n| n <= self.words.len()).ok_or_else(|| SceneTextError::NotACount {
            line: self.line(),
            what: what.to_string(),
            word: t.to_string(),
        })
    }

    fn pose(&mut self, what: &str) -> Result<Pose, SceneTextError> {
        let mut v = [0.0; 7];
        for (k, x) in v.iter_mut().enumerate() {
            *x = self.number(&format!("{what} ({} of x y z qx qy qz qw)", k + 1))?;
        }
        Ok(Pose { position: Point { x: v[0], y: v[1], z: v[2] }, orientation: Quaternion { x: v[3], y: v[4], z: v[5], w: v[6] } })
    }
}

/// The collision objects of a `.scene` text (to be added to a planning scene), or where
/// the text is wrong.
pub fn parse_scene_text(text: &str) -> Result<Vec<CollisionObject>, SceneTextError> {
    if text.trim().is_empty() {
        return Err(SceneTextError::Empty);
    }
    let mut words = Words::new(text);
    // As MoveIt: the first object's line after its id has a pose (new format) or a count.
    let new_format = text.lines().skip_while(|l| !l.trim_start().starts_with('*')).nth(1).is_some_and(|l| l.split_whitespace().count() > 1);
    let mut objects = Vec::new();
    loop {
        let id = match words.next("the next object or '.'")? {
            Word::Token(".") => return Ok(objects),
            Word::Object(id) if !id.is_empty() => id.to_string(),
            Word::Object(_) => return Err(SceneTextError::ObjectWithoutId { line: words.line() }),
            Word::Token(other) => return Err(SceneTextError::ExpectedObject { line: words.line(), word: other.to_string() }),
        };
        let mut object = CollisionObject { id: id.clone(), operation: CollisionObject::ADD, ..Default::default() };
        if new_format {
            object.pose = words.pose(&format!("the pose of '{id}'"))?;
        }
        for _ in 0..words.count(&format!("the number of shapes of '{id}'"))? {
            read_shape(&mut words, &mut object)?;
        }
        if new_format {
            for _ in 0..words.count(&format!("the number of subframes of '{id}'"))? {
                let name = words.token("a subframe name")?.to_string();
                let pose = words.pose(&format!("the pose of subframe '{name}'"))?;
                object.subframe_names.push(name);
                object.subframe_poses.push(pose);
            }
        }
        objects.push(object);
    }
}

/// One shape of an object: keyword, numbers, pose, colour (ignored).
fn read_shape(words: &mut Words, object: &mut CollisionObject) -> Result<(), SceneTextError> {
    let id = object.id.clone();
    let keyword = words.token(&format!("a shape of '{id}'"))?;
    let mut numbers = |n: usize, what: &str| (0..n).map(|k| words.number(&format!("{what} ({} of {n})", k + 1))).collect::<Result<Vec<f64>, _>>();
    enum Part {
        Primitive(SolidPrimitive),
        Mesh(Mesh),
        Plane(Plane),
    }
    let primitive = |kind: u8, dimensions: Vec<f64>| Part::Primitive(SolidPrimitive { kind, dimensions, ..Default::default() });
    let part = match keyword {
        "box" => primitive(SolidPrimitive::BOX, numbers(3, "box size x y z")?),
        "sphere" => primitive(SolidPrimitive::SPHERE, numbers(1, "sphere radius")?),
        // The text has radius, then length; the message height, then radius.
        "cylinder" | "cone" => {
            let rl = numbers(2, &format!("{keyword} radius and length"))?;
            primitive(if keyword == "cylinder" { SolidPrimitive::CYLINDER } else { SolidPrimitive::CONE }, vec![rl[1], rl[0]])
        }
        "plane" => {
            let c = numbers(4, "plane coefficients a b c d")?;
            Part::Plane(Plane { coef: [c[0], c[1], c[2], c[3]] })
        }
        "mesh" => {
            let (v, t) = (words.count("the mesh's vertex count")?, words.count("the mesh's triangle count")?);
            let mut mesh = Mesh::default();
            for _ in 0..v {
                let p = (0..3).map(|_| words.number("a mesh vertex")).collect::<Result<Vec<f64>, _>>()?;
                mesh.vertices.push(Point { x: p[0], y: p[1], z: p[2] });
            }
            for _ in 0..t {
                let mut vertex_indices = [0u32; 3];
                for index in &mut vertex_indices {
                    let i = words.count("a mesh vertex index")?;
                    *index = u32::try_from(i).ok().filter(|&i| (i as usize) < v).ok_or_else(|| SceneTextError::VertexIndex {
                        line: words.line(),
                        index: i,
                        id: id.clone(),
                        vertices: v,
                    })?;
                }
                mesh.triangles.push(MeshTriangle { vertex_indices });
            }
            Part::Mesh(mesh)
        }
        other => return Err(SceneTextError::UnknownShape { line: words.line(), keyword: other.to_string(), id }),
    };
    let pose = words.pose(&format!("the pose of a shape of '{id}'"))?;
    for k in 0..4 {
        words.number(&format!("the colour of a shape of '{id}' ({} of r g b a)", k + 1))?;
    }
    match part {
        Part::Primitive(p) => {
            object.primitives.push(p);
            object.primitive_poses.push(pose);
        }
        Part::Mesh(m) => {
            object.meshes.push(m);
            object.mesh_poses.push(pose);
        }
        Part::Plane(p) => {
            object.planes.push(p);
            object.plane_poses.push(pose);
        }
    }
    Ok(())
}

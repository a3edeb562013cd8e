//! The shape docs/architecture.md promises a variant, checked on the
//! source tree for every registered variant: its folder `src/<name>/` has
//! every variant's file set, and no module outside the folders (the crate
//! root, which holds the registry, aside) names a variant, nor does one
//! variant's folder name another's. So a variant joins by its folder and
//! its registry line, and leaves by deleting them.

use std::fs;
use std::path::{Path, PathBuf};

use heterodox_env::{GameVariant, Variant, VariantVisitor};

/// The files every variant folder has, each with the same meaning.
const FILE_SET: [&str; 9] = [
    "mod.rs",      // the position type and `impl Position`
    "action.rs",   // the action type and its long form
    "setup.rs",    // the unvalidated setup, position strings, validation
    "movegen.rs",  // legal action generation
    "notation.rs", // the variant's notation, read and written
    "encoding.rs", // `impl Encoding`: action indices, observation
    "diagram.rs",  // the `Diagram` builder
    "gesture.rs",  // `impl Gestures`: what a person clicks for each action
    "variant.rs",  // `impl GameVariant`: the registry entry
];

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// Every `.rs` file under `dir`.
fn sources(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files.extend(sources(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
    files
}

/// The code of a source file: comment lines dropped.
fn code(path: &Path) -> String {
    fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter(|line| !line.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// A variant's module (its folder) and its position type's name.
fn names(variant: Variant) -> (String, String) {
    struct TypeName;
    impl VariantVisitor for TypeName {
        type Output = &'static str;
        fn visit<P: GameVariant>(self) -> &'static str {
            std::any::type_name::<P>()
        }
    }
    let path = variant.visit(TypeName);
    let mut segments = path.rsplit("::");
    let position = segments.next().unwrap().to_owned();
    let module = segments.next().unwrap().to_owned();
    (module, position)
}

/// True when `text` names the variant: its module by path or its position
/// type as a word.
fn mentions(text: &str, (module, position): &(String, String)) -> bool {
    let word = |at: usize, len: usize| {
        let before = text[..at].chars().next_back();
        let after = text[at + len..].chars().next();
        !before.is_some_and(|c| c.is_alphanumeric() || c == '_')
            && !after.is_some_and(|c| c.is_alphanumeric() || c == '_')
    };
    text.contains(&format!("crate::{module}::"))
        || text.contains(&format!("crate::{module};"))
        || text
            .match_indices(position.as_str())
            .any(|(at, _)| word(at, position.len()))
}

#[test]
fn every_variant_folder_has_the_file_set() {
    for variant in Variant::ALL {
        let (module, _) = names(variant);
        assert_eq!(module, variant.name(), "the folder is the registered name");
        for file in FILE_SET {
            let path = src().join(&module).join(file);
            assert!(path.is_file(), "{} is missing", path.display());
        }
    }
}

#[test]
fn only_the_registry_names_a_variant() {
    let variants: Vec<(String, String)> = Variant::ALL.into_iter().map(names).collect();
    for path in sources(&src()) {
        let relative = path.strip_prefix(src()).unwrap();
        let folder = relative
            .components()
            .next()
            .and_then(|c| c.as_os_str().to_str())
            .unwrap();
        if relative == Path::new("lib.rs") {
            continue; // the registry and the crate's re-exports
        }
        let text = code(&path);
        for names in &variants {
            let (module, _) = names;
            // King of the Hill is chess plus one rule by design (its
            // mod.rs says why); every other folder stands alone.
            let allowed = folder == module || (folder == "kingofthehill" && module == "chess");
            assert!(
                allowed || !mentions(&text, names),
                "{} names the variant {module}",
                relative.display()
            );
        }
    }
}

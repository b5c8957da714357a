//! Embeds every `rules/*.rhai` script in the binary, so built-in games need no files at run time.

use std::{env, fs, path::Path};

fn main() {
    println!("cargo:rerun-if-changed=rules");
    let mut entries: Vec<_> = fs::read_dir("rules")
        .map(|dir| dir.filter_map(Result::ok).map(|e| e.path()).collect())
        .unwrap_or_default();
    entries.retain(|p| p.extension().is_some_and(|e| e == "rhai"));
    entries.sort();
    let mut code = String::from("/// Built-in rules scripts: (name, source).\npub static EMBEDDED_RULES: &[(&str, &str)] = &[\n");
    for path in entries {
        let name = path.file_stem().unwrap().to_string_lossy();
        let abs = fs::canonicalize(&path).unwrap();
        println!("cargo:rerun-if-changed={}", path.display());
        code += &format!(
            "    ({name:?}, include_str!({:?})),\n",
            abs.display().to_string()
        );
    }
    code += "];\n";
    let out = Path::new(&env::var("OUT_DIR").unwrap()).join("embedded_rules.rs");
    fs::write(out, code).unwrap();
}

use boardrules::{runtime::Game, script::{Library, ScriptedGame}};
fn main() {
    let lib = Library::with_rules_dir("rules");
    let name = std::env::args().nth(1).unwrap();
    let g = match ScriptedGame::load(&lib, &name) { Ok(g) => g, Err(ds) => { for d in ds { eprintln!("{}", d.render(false)); } return; } };
    let mut s = g.start().unwrap();
    println!("{}", g.render(&s).unwrap());
    for a in std::env::args().skip(2) {
        for t in g.split_moves(&a).unwrap() {
            let m = match g.parse_move(&s, &t) { Ok(m) => m, Err(e) => { println!("ERR {e:?}"); return; } };
            s = match g.play(&s, &m) { Ok(p) => p.state, Err(e) => { println!("ERR {e:?}"); return; } };
            println!("> {t}\n{}\n{:?}", g.render(&s).unwrap(), g.outcome(&s));
        }
    }
    println!("{:?}", g.options().iter().map(|o| (o.name.clone(), o.default.to_string())).collect::<Vec<_>>());
}

//! The `boardrules` command.

fn main() -> std::process::ExitCode {
    boardrules::cli::main()
}

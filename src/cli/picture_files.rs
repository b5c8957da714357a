//! The options of every command that writes a picture: `--svg FILE`, `--png FILE`, and the size
//! (`--size WxH` or `--scale F`).

use std::path::PathBuf;

use clap::Args;

use crate::{
    diag::Diagnostic,
    picture::output::{self, Size},
    repl::save::{write_atomically, write_bytes_atomically},
};

/// Where to write a picture, and how big.
#[derive(Debug, Clone, Default, Args)]
pub struct PictureFiles {
    /// Write the picture as SVG to this file.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
    /// Write the picture as PNG to this file (drawn with the font built into boardrules, so it
    /// looks the same on every machine).
    #[arg(long, value_name = "FILE")]
    pub png: Option<PathBuf>,
    /// The picture's size in pixels: WIDTHxHEIGHT (the picture fitted in and centred, e.g.
    /// 1920x1080 for a projector) or a WIDTH (the height in proportion).
    #[arg(long, value_name = "WxH", value_parser = Size::parse, conflicts_with = "scale")]
    pub size: Option<Size>,
    /// Scale the picture's natural size by this factor (e.g. 2).
    #[arg(long, value_name = "FACTOR", value_parser = Size::parse_scale)]
    pub scale: Option<Size>,
}

impl PictureFiles {
    /// Whether a file was asked for.
    pub fn any(&self) -> bool {
        self.svg.is_some() || self.png.is_some()
    }

    /// Writes `svg` (natural size) to the files asked for, at the size asked for.
    pub fn write(&self, svg: &str) -> Result<(), Vec<Diagnostic>> {
        let size = self.size.or(self.scale).unwrap_or_default();
        let failed = |path: &PathBuf, e: String| {
            vec![Diagnostic::new(format!(
                "cannot write {}: {e}",
                path.display()
            ))]
        };
        if let Some(path) = &self.svg {
            let text = output::sized_svg(svg, size).map_err(|e| failed(path, e))?;
            write_atomically(path, &text).map_err(|e| failed(path, e))?;
        }
        if let Some(path) = &self.png {
            let bytes = output::png(svg, size).map_err(|e| failed(path, e))?;
            write_bytes_atomically(path, &bytes).map_err(|e| failed(path, e))?;
        }
        Ok(())
    }
}

//! Board diagrams as PNG pictures: an SVG diagram of [`super::svg`] drawn by resvg.

/// A diagram that could not be turned into a PNG.
#[derive(Debug, thiserror::Error)]
pub enum PngError {
    /// The SVG was not understood (a bug: kickoff wrote it).
    #[error("the diagram is not valid SVG: {0}")]
    Svg(String),
    /// The picture could not be encoded.
    #[error("the PNG could not be made: {0}")]
    Encode(String),
}

/// The diagram as a PNG, `scale` times the SVG's size.
///
/// # Errors
/// The SVG cannot be read or the picture encoded (neither happens with kickoff's own SVG).
pub fn png(svg: &str, scale: f32) -> Result<Vec<u8>, PngError> {
    use resvg::{tiny_skia, usvg};
    let tree = usvg::Tree::from_str(svg, &usvg::Options::default())
        .map_err(|e| PngError::Svg(e.to_string()))?;
    let size = tree.size();
    let (w, h) = ((size.width() * scale).ceil() as u32, (size.height() * scale).ceil() as u32);
    let mut pixmap = tiny_skia::Pixmap::new(w, h)
        .ok_or_else(|| PngError::Encode(format!("no picture of {w}x{h} pixels")))?;
    pixmap.fill(tiny_skia::Color::WHITE);
    resvg::render(&tree, tiny_skia::Transform::from_scale(scale, scale), &mut pixmap.as_mut());
    pixmap.encode_png().map_err(|e| PngError::Encode(e.to_string()))
}

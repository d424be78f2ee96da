//! Rendering for people: board diagrams and rules in words.

pub mod diagram;
pub mod explain;
pub mod places;
#[cfg(feature = "png")]
pub mod png;
pub mod printable;
#[cfg(feature = "svg")]
pub mod svg;
pub mod terminal;
pub mod words;

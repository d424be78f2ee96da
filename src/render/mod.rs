//! Rendering for people: board diagrams and rules in words.

pub(crate) mod diagram;
pub mod explain;
pub(crate) mod places;
#[cfg(feature = "png")]
pub mod png;
pub mod reach;
#[cfg(feature = "svg")]
pub mod svg;
pub mod terminal;
pub(crate) mod words;

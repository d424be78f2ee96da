//! Rendering for people: board diagrams and rules in words.

pub mod diagram;
pub mod explain;
pub mod places;
pub mod svg;
pub mod terminal;
pub mod words;

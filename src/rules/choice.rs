//! Rule options that a definition writes as one of a few names (`kick.direction = "line"`).
//!
//! Each such option is an enum declared with [`choice!`]: its values, their names in a
//! definition, what each means and which is the default are written there once. The checks of a
//! definition, the compiler, the JSON Schema and the key tables of README.md and docs/rules.md
//! all read them through [`Choice`], so adding a value is one line in one place.

/// A rule option written in a definition as one of a fixed list of names.
pub trait Choice: Copy + Eq + Sized + 'static {
    /// Every value, the default first, in the order the docs list them.
    const ALL: &'static [Self];
    /// The name of each value of [`Choice::ALL`] in a definition.
    const NAMES: &'static [&'static str];
    /// What each value of [`Choice::ALL`] means, one sentence for authors.
    const MEANINGS: &'static [&'static str];
    /// The value when a definition does not give the key.
    const DEFAULT: Self;
    /// The name of [`Choice::DEFAULT`].
    const DEFAULT_NAME: &'static str;

    /// The value's name in a definition.
    #[must_use]
    fn name(self) -> &'static str {
        Self::ALL.iter().zip(Self::NAMES).find(|(v, _)| **v == self).map_or("", |(_, n)| n)
    }

    /// The value a definition names `name`, if any.
    #[must_use]
    fn from_name(name: &str) -> Option<Self> {
        Self::NAMES.iter().position(|n| *n == name).map(|i| Self::ALL[i])
    }
}

/// Declares a [`Choice`] enum. The first value, marked `default`, is the default; each value's
/// doc comment is also its meaning for authors, and the string is its name in a definition.
///
/// ```text
/// choice! {
///     /// `kick.direction`: ...
///     pub enum KickDirection {
///         /// The ball flies directly away from its kicker.
///         default Away = "away",
///         /// The ball may also fly backwards, over its kicker.
///         Line = "line",
///     }
/// }
/// ```
macro_rules! choice {
    (
        $(#[$meta:meta])*
        pub enum $name:ident {
            $(#[doc = $first_doc:literal])+
            default $first:ident = $first_name:literal,
            $( $(#[doc = $doc:literal])+ $variant:ident = $variant_name:literal, )*
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum $name {
            $(#[doc = $first_doc])+
            $first,
            $( $(#[doc = $doc])+ $variant, )*
        }

        impl $crate::rules::Choice for $name {
            const ALL: &'static [Self] = &[Self::$first, $(Self::$variant),*];
            const NAMES: &'static [&'static str] = &[$first_name, $($variant_name),*];
            const MEANINGS: &'static [&'static str] =
                &[concat!($($first_doc),+), $(concat!($($doc),+)),*];
            const DEFAULT: Self = Self::$first;
            const DEFAULT_NAME: &'static str = $first_name;
        }

        impl Default for $name {
            fn default() -> Self {
                <Self as $crate::rules::Choice>::DEFAULT
            }
        }
    };
}

pub(crate) use choice;

//! Values a text column holds one of (a status, a kind), as Rust enums: the
//! stored spelling is written once, next to the variant, and a filter takes
//! the enum (`Column::Status.eq(Status::Pending)`).

/// Declares `enum $name` with `as_str`, `parse`, `ALL` and the conversion to
/// a query value:
///
/// ```ignore
/// stored_enum! {
///     /// A request's state.
///     pub enum Status { Pending = "pending", Approved = "approved" }
/// }
/// ```
#[macro_export]
macro_rules! stored_enum {
    (
        $(#[$meta:meta])*
        pub enum $name:ident {
            $( $(#[$vmeta:meta])* $variant:ident = $stored:literal ),+ $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum $name {
            $( $(#[$vmeta])* $variant ),+
        }

        impl $name {
            /// Every value, in declaration order.
            pub const ALL: &'static [Self] = &[$(Self::$variant),+];

            /// The stored spelling.
            pub const fn as_str(self) -> &'static str {
                match self {
                    $( Self::$variant => $stored ),+
                }
            }

            /// The value stored as `stored`, if it is one.
            pub fn parse(stored: &str) -> Option<Self> {
                match stored {
                    $( $stored => Some(Self::$variant), )+
                    _ => None,
                }
            }

            /// The stored spellings of `values`, for an `IN` filter.
            pub fn stored(values: &[Self]) -> Vec<&'static str> {
                values.iter().map(|value| value.as_str()).collect()
            }
        }

        impl ::std::fmt::Display for $name {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl From<$name> for ::sea_orm::Value {
            fn from(value: $name) -> Self {
                value.as_str().into()
            }
        }

        impl From<$name> for String {
            fn from(value: $name) -> Self {
                value.as_str().to_owned()
            }
        }

        impl PartialEq<$name> for String {
            fn eq(&self, other: &$name) -> bool {
                self.as_str() == other.as_str()
            }
        }

        impl PartialEq<$name> for &str {
            fn eq(&self, other: &$name) -> bool {
                *self == other.as_str()
            }
        }
    };
}

#[cfg(test)]
mod tests {
    stored_enum! {
        /// A toy.
        pub enum Light { Red = "red", Green = "green" }
    }

    #[test]
    fn every_value_reads_back_and_compares_with_its_stored_text() {
        for light in Light::ALL {
            assert_eq!(Light::parse(light.as_str()), Some(*light));
        }
        assert_eq!(Light::parse("blue"), None);
        let stored: String = Light::Red.into();
        assert!(stored == Light::Red);
        assert!(stored != Light::Green);
        assert!("green" == Light::Green);
        assert_eq!(Light::stored(&[Light::Green]), vec!["green"]);
        assert_eq!(
            sea_orm::Value::from(Light::Red),
            sea_orm::Value::from("red")
        );
    }
}

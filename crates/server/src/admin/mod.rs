//! Administration: the admin role (user_roles) and, later, the admin pages'
//! endpoints.

pub mod roles;

//! Where the node looks for peers: `ROS_DOMAIN_ID`, `ROS_AUTOMATIC_DISCOVERY_RANGE`
//! (Jazzy) and `ROS_LOCALHOST_ONLY` (Humble; still honoured), as the rmw layers read them.

/// Why the ROS environment variables were refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DiscoveryError {
    #[error("ROS_DOMAIN_ID '{0}' is not a domain id (0 to 232)")]
    DomainId(String),
    #[error("ROS_AUTOMATIC_DISCOVERY_RANGE '{0}' is not LOCALHOST, OFF, SUBNET or SYSTEM_DEFAULT")]
    Range(String),
}

/// How far discovery reaches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DiscoveryRange {
    /// This host only: multicast and advertised locators on the loopback interface.
    Localhost,
    /// No discovery beyond this process.
    Off,
    /// The local networks (DDS's default).
    Subnet,
}

/// The domain and the range, from the environment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Discovery {
    pub domain_id: u16,
    pub range: DiscoveryRange,
}

impl Discovery {
    pub fn from_env() -> Result<Self, DiscoveryError> {
        Self::from_vars(|name| std::env::var(name).ok())
    }

    /// `var(name)` reads a variable. An unset or empty `ROS_AUTOMATIC_DISCOVERY_RANGE`
    /// (or `SYSTEM_DEFAULT`) defers to `ROS_LOCALHOST_ONLY=1`, else means SUBNET.
    pub fn from_vars(var: impl Fn(&str) -> Option<String>) -> Result<Self, DiscoveryError> {
        let domain_id = match var("ROS_DOMAIN_ID").map(|v| v.trim().to_string()).filter(|v| !v.is_empty()) {
            None => 0,
            Some(v) => match v.parse::<u16>() {
                // rmw accepts 0..=232 (the UDP port mapping's limit for domain ids).
                Ok(id) if id <= 232 => id,
                _ => return Err(DiscoveryError::DomainId(v)),
            },
        };
        let localhost_only = var("ROS_LOCALHOST_ONLY").is_some_and(|v| v.trim() == "1");
        let range = match var("ROS_AUTOMATIC_DISCOVERY_RANGE").map(|v| v.trim().to_ascii_uppercase()).as_deref() {
            None | Some("") | Some("SYSTEM_DEFAULT") => {
                if localhost_only {
                    DiscoveryRange::Localhost
                } else {
                    DiscoveryRange::Subnet
                }
            }
            Some("LOCALHOST") => DiscoveryRange::Localhost,
            Some("OFF") => DiscoveryRange::Off,
            Some("SUBNET") => DiscoveryRange::Subnet,
            Some(other) => return Err(DiscoveryError::Range(other.to_string())),
        };
        Ok(Self { domain_id, range })
    }
}

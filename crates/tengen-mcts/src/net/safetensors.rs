//! Network files: safetensors, their header read for the network's shape
//! before its weights are loaded.

use super::NetError;
use burn_store::{ModuleSnapshot, SafetensorsStore};

/// The JSON header of a safetensors file (eight bytes of length, then
/// JSON naming each tensor's shape).
pub(crate) fn read_safetensors_header(bytes: &[u8]) -> Result<serde_json::Value, NetError> {
    let header_len = bytes
        .get(..8)
        .and_then(|b| <[u8; 8]>::try_from(b).ok())
        .map(u64::from_le_bytes)
        .ok_or_else(|| NetError::Header("shorter than 8 bytes".into()))?;
    let end = usize::try_from(header_len)
        .ok()
        .and_then(|n| n.checked_add(8))
        .filter(|&e| e <= bytes.len())
        .ok_or_else(|| NetError::Header(format!("header of {header_len} bytes")))?;
    serde_json::from_slice(&bytes[8..end]).map_err(|e| NetError::Header(e.to_string()))
}

/// The filters and layers of a network in a safetensors file whose first
/// convolution (`first.weight`, 5x5) reads `planes` input planes and whose
/// next ones are `body.0.weight`, `body.1.weight`..., read from its header.
pub(crate) fn read_conv_shape(bytes: &[u8], planes: usize) -> Result<(usize, usize), NetError> {
    let header = read_safetensors_header(bytes)?;
    let dims = |name: &str| -> Option<Vec<usize>> {
        header
            .get(name)?
            .get("shape")?
            .as_array()?
            .iter()
            .map(|d| d.as_u64().and_then(|d| usize::try_from(d).ok()))
            .collect()
    };
    let first = "first.weight";
    let found = dims(first).ok_or_else(|| NetError::Missing(first.into()))?;
    let channels = match found.as_slice() {
        [c, p, 5, 5] if *p == planes => *c,
        _ => {
            return Err(NetError::Shape {
                name: first.into(),
                found,
                expected: vec![0, planes, 5, 5],
            });
        }
    };
    let layers = 1
        + (0..)
            .take_while(|i| dims(&format!("body.{i}.weight")).is_some())
            .count();
    Ok((channels, layers))
}

/// Loads the weights of a safetensors file into `net`, every tensor there
/// and of the right shape.
pub(crate) fn load_safetensors<M: ModuleSnapshot>(
    net: &mut M,
    bytes: &[u8],
) -> Result<(), NetError> {
    let mut store = SafetensorsStore::from_bytes(Some(bytes.to_vec()));
    let result = net
        .load_from(&mut store)
        .map_err(|e| NetError::Load(e.to_string()))?;
    if let Some((name, _)) = result.missing.first() {
        return Err(NetError::Missing(name.clone()));
    }
    if let Some(e) = result.errors.first() {
        return Err(NetError::Load(format!("{e:?}")));
    }
    Ok(())
}

/// The weights of `net` as a safetensors file.
pub(crate) fn save_safetensors<M: ModuleSnapshot>(net: &M) -> Result<Vec<u8>, NetError> {
    let mut store = SafetensorsStore::from_bytes(None);
    net.save_into(&mut store)
        .map_err(|e| NetError::Load(e.to_string()))?;
    store.get_bytes().map_err(|e| NetError::Load(e.to_string()))
}

//! ImageLocality Score (pkg/scheduler/framework/plugins/imagelocality/image_locality.go): favours
//! nodes that already hold the pod's images (`node.status.images`), each image's size scaled by
//! the share of nodes that hold it, the sum clamped to [23 MiB, 1000 MiB × containers] and mapped
//! to 0–100. No NormalizeScore; weight 1 in the default profile.

use crate::api::{Node, Pod};
use std::collections::{BTreeMap, BTreeSet};

const MB: i64 = 1024 * 1024;
/// `minThreshold`.
pub const MIN_THRESHOLD: i64 = 23 * MB;
/// `maxContainerThreshold`.
pub const MAX_CONTAINER_THRESHOLD: i64 = 1000 * MB;

/// `normalizedImageName`: appends `:latest` to a reference without a tag (the last `:` not after
/// the last `/`).
pub fn normalized_image_name(name: &str) -> String {
    let colon = name.rfind(':').map_or(-1, |i| i as i64);
    let slash = name.rfind('/').map_or(-1, |i| i as i64);
    if colon <= slash {
        format!("{name}:latest")
    } else {
        name.to_string()
    }
}

/// `(names, sizeBytes)` of each `status.images` entry of a node (entries that do not parse are
/// skipped, as the API server would have rejected them).
fn node_images(node: &Node) -> Vec<(Vec<&str>, i64)> {
    let Some(images) = node.status.extra.get("images").and_then(|v| v.as_array()) else {
        return vec![];
    };
    images
        .iter()
        .map(|img| {
            let names = img
                .get("names")
                .and_then(|v| v.as_array())
                .map(|a| a.iter().filter_map(|n| n.as_str()).collect())
                .unwrap_or_default();
            let size = img.get("sizeBytes").and_then(|v| v.as_i64()).unwrap_or(0);
            (names, size)
        })
        .collect()
}

/// Whether the node lists some image (else [`image_states`] has nothing from it).
pub fn has_images(node: &Node) -> bool {
    node.status
        .extra
        .get("images")
        .and_then(|v| v.as_array())
        .is_some_and(|a| !a.is_empty())
}

/// `ImageStateSummary` of every image name on one node: (size, number of nodes holding it).
pub type ImageStates = BTreeMap<String, (i64, usize)>;

/// The snapshot's image states (`createImageExistenceMap` + `getNodeImageStates`): per node,
/// each image name with its size there and how many of `all` nodes list that name. `None`
/// when no node lists images (every score is 0).
pub fn image_states<'n>(all: impl IntoIterator<Item = &'n Node>) -> Option<Vec<ImageStates>> {
    let per_node: Vec<Vec<(Vec<&str>, i64)>> = all.into_iter().map(node_images).collect();
    if per_node.iter().all(|v| v.is_empty()) {
        return None;
    }
    let mut existence: BTreeMap<&str, usize> = BTreeMap::new();
    for imgs in &per_node {
        let names: BTreeSet<&str> = imgs.iter().flat_map(|(n, _)| n.iter().copied()).collect();
        for n in names {
            *existence.entry(n).or_insert(0) += 1;
        }
    }
    Some(
        per_node
            .iter()
            .map(|imgs| {
                let mut states = ImageStates::new();
                for (names, size) in imgs {
                    for n in names {
                        let count = existence.get(n).copied().unwrap_or(0);
                        states.insert((*n).to_string(), (*size, count));
                    }
                }
                states
            })
            .collect(),
    )
}

/// `calculatePriority`.
pub fn calculate_priority(sum_scores: i64, num_containers: usize) -> i64 {
    let max_threshold = MAX_CONTAINER_THRESHOLD.saturating_mul(num_containers as i64);
    if max_threshold <= MIN_THRESHOLD {
        return 0;
    }
    let s = sum_scores.clamp(MIN_THRESHOLD, max_threshold);
    super::MAX_NODE_SCORE * (s - MIN_THRESHOLD) / (max_threshold - MIN_THRESHOLD)
}

/// ImageLocality `Score` of a node with image states `states` among `total_num_nodes` nodes:
/// init containers and containers (`sumImageScores`, each image `size × numNodes / total`).
pub fn score(pod: &Pod, states: &ImageStates, total_num_nodes: usize) -> i64 {
    let mut sum = 0i64;
    for c in pod.spec.init_containers.iter().chain(&pod.spec.containers) {
        if let Some((size, num_nodes)) = states.get(&normalized_image_name(&c.image)) {
            // scaledImageScore: int64(float64(size) * float64(numNodes)/float64(total)).
            let spread = *num_nodes as f64 / total_num_nodes.max(1) as f64;
            sum = sum.saturating_add((*size as f64 * spread) as i64);
        }
    }
    calculate_priority(
        sum,
        pod.spec.init_containers.len() + pod.spec.containers.len(),
    )
}

#[cfg(test)]
#[path = "image_locality_tests.rs"]
mod tests;

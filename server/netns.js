// Network namespaces for a cluster's nodes (`bench server start mariadb --nodes 3 --netns`), as
// ../../shared/CLUSTERS.md verified them: a hub namespace holding a bridge, one namespace per node with a veth pair
// into the hub and an address of a private /24 of its own, and one more veth pair from the root namespace into the
// hub, so that the harness's clients reach the nodes over TCP on that subnet and never through the default
// gateway. Cutting a node off is taking its hub-side link down. Only addresses these namespaces hold are ever
// connected to; the subnet is one no address or route of this machine's already uses.
import { BenchError, ErrorCodes } from '../core/errors.js';
import { isRoot, run } from './process.js';

const ROOT_HOST = 254;

const ip = (...args) => run('ip', args);

// The third octet of a 10.77.X.0/24 that no address or route of the root namespace names.
async function freeSubnet() {
  const { stdout: addresses } = await ip('-o', '-4', 'addr', 'show');
  const { stdout: routes } = await ip('-4', 'route', 'show', 'table', 'all');
  const taken = `${addresses}\n${routes}`;
  for (let x = 0; x < 255; x += 1) {
    if (!taken.includes(`10.77.${x}.`)) return x;
  }
  throw new BenchError(ErrorCodes.USAGE, 'no free 10.77.x.0/24 subnet for the cluster\'s namespaces');
}

export function nodeAddress(network, k) {
  return `${network.subnet}.${k}`;
}

// `tag`: a few characters that make the names this cluster's (interface names hold 15 characters at most).
export async function createNetwork({ tag, nodes }) {
  if (!isRoot()) throw new BenchError(ErrorCodes.USAGE, '--netns creates network namespaces, which needs root');
  try {
    await ip('-V');
  } catch {
    throw new BenchError(ErrorCodes.USAGE, '--netns needs the `ip` command (iproute2)');
  }
  const subnet = `10.77.${await freeSubnet()}`;
  const name = `dbs${tag}`;
  const network = {
    kind: 'namespaces', subnet, cidr: `${subnet}.0/24`, hub: `${name}-hub`, bridge: `${name}br`, rootLink: `${name}r`,
    rootAddress: `${subnet}.${ROOT_HOST}`,
    nodes: Array.from({ length: nodes }, (_, i) => ({ k: i + 1, namespace: `${name}-n${i + 1}`, link: `${name}v${i + 1}`, hubLink: `${name}h${i + 1}` })),
  };
  // Namespaces of this cache's cluster that a cluster killed with the harness left behind: ours by their names.
  await removeNetwork(network);
  try {
    await ip('netns', 'add', network.hub);
    await ip('-n', network.hub, 'link', 'set', 'lo', 'up');
    await ip('-n', network.hub, 'link', 'add', network.bridge, 'type', 'bridge');
    await ip('-n', network.hub, 'link', 'set', network.bridge, 'up');
    // The root namespace's own address on the subnet, through a veth pair into the hub.
    await ip('link', 'add', network.rootLink, 'type', 'veth', 'peer', 'name', `${name}rh`);
    await ip('link', 'set', `${name}rh`, 'netns', network.hub);
    await ip('-n', network.hub, 'link', 'set', `${name}rh`, 'master', network.bridge);
    await ip('-n', network.hub, 'link', 'set', `${name}rh`, 'up');
    await ip('addr', 'add', `${network.rootAddress}/24`, 'dev', network.rootLink);
    await ip('link', 'set', network.rootLink, 'up');
    for (const node of network.nodes) {
      await ip('netns', 'add', node.namespace);
      await ip('-n', node.namespace, 'link', 'set', 'lo', 'up');
      await ip('link', 'add', node.link, 'type', 'veth', 'peer', 'name', node.hubLink);
      await ip('link', 'set', node.link, 'netns', node.namespace);
      await ip('link', 'set', node.hubLink, 'netns', network.hub);
      await ip('-n', node.namespace, 'addr', 'add', `${nodeAddress(network, node.k)}/24`, 'dev', node.link);
      await ip('-n', node.namespace, 'link', 'set', node.link, 'up');
      await ip('-n', network.hub, 'link', 'set', node.hubLink, 'master', network.bridge);
      await ip('-n', network.hub, 'link', 'set', node.hubLink, 'up');
    }
  } catch (error) {
    await removeNetwork(network);
    throw new BenchError(ErrorCodes.CONNECT, `creating the cluster's network namespaces failed: ${error.stderr?.trim() || error.message}`);
  }
  return network;
}

// Deleting the namespaces deletes their veth pairs (and with the hub's, the root namespace's end) and the bridge.
export async function removeNetwork(network) {
  for (const node of network.nodes) await ip('netns', 'del', node.namespace).catch(() => {});
  await ip('netns', 'del', network.hub).catch(() => {});
  await ip('link', 'del', network.rootLink).catch(() => {});
}

// Node k cut off the network (its hub-side link down), or back on it.
export async function setNodeLink(network, k, up) {
  const node = network.nodes.find((one) => one.k === k);
  await ip('-n', network.hub, 'link', 'set', node.hubLink, up ? 'up' : 'down');
}

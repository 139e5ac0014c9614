// One pool over several servers (the nodes of a Galera cluster, a PostgreSQL primary's replicas, --host a:p,b:p,c:p): the run's connections are
// spread round robin over the endpoints (connection j to endpoint j mod n, so each endpoint holds ⌊c/n⌋ or ⌈c/n⌉ of
// them), and an operation takes an idle connection of the endpoint that has the most idle ones, the next endpoint in
// turn on a tie: what one pool of c connections would do if its connections lay on several servers. Every endpoint
// counts the operations it served, which the result records.

// How many of `concurrency` connections each of `count` endpoints holds, when the first of them is connection
// number `offset` of the whole run (a client process of `bench run --clients` holds the connections after those of
// the processes before it, so that together they spread as one pool would).
export function connectionShares(concurrency, count, offset = 0) {
  const shares = new Array(count).fill(0);
  for (let j = offset; j < offset + concurrency; j += 1) shares[j % count] += 1;
  return shares;
}

export class SpreadPool {
  #pools;
  #endpoints;
  #limits;
  #busy;
  #served;
  #next = 0;

  // `pools[i]`: a pool of `limits[i]` connections to `endpoints[i]` ('host:port'); an endpoint with no connection
  // (fewer connections than endpoints) has no pool.
  constructor(pools, endpoints, limits) {
    this.#pools = pools;
    this.#endpoints = endpoints;
    this.#limits = limits;
    this.#busy = limits.map(() => 0);
    this.#served = limits.map(() => 0);
  }

  // The endpoint with the most idle connections; ties go round robin.
  #pick() {
    let best = -1;
    let bestIdle = -Infinity;
    const count = this.#pools.length;
    for (let step = 0; step < count; step += 1) {
      const i = (this.#next + step) % count;
      if (this.#limits[i] === 0) continue;
      const idle = this.#limits[i] - this.#busy[i];
      if (idle > bestIdle) {
        best = i;
        bestIdle = idle;
      }
    }
    this.#next = (best + 1) % count;
    this.#busy[best] += 1;
    this.#served[best] += 1;
    return best;
  }

  async #on(method, args) {
    const i = this.#pick();
    try {
      return await this.#pools[i][method](...args);
    } finally {
      this.#busy[i] -= 1;
    }
  }

  query(...args) {
    return this.#on('query', args);
  }

  execute(...args) {
    return this.#on('execute', args);
  }

  // A connection held by the caller counts as busy until it is released or destroyed.
  async getConnection() {
    const i = this.#pick();
    let connection;
    try {
      connection = await this.#pools[i].getConnection();
    } catch (error) {
      this.#busy[i] -= 1;
      throw error;
    }
    let held = true;
    const done = () => {
      if (held) this.#busy[i] -= 1;
      held = false;
    };
    return new Proxy(connection, {
      get(target, name) {
        if (name === 'release' || name === 'destroy') return () => { done(); return target[name](); };
        const value = Reflect.get(target, name, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
  }

  on(event, listener) {
    for (const pool of this.#pools) pool?.on(event, listener);
    return this;
  }

  // `work(pool, endpoint)` on every endpoint that holds connections, one after the other; resolves with their
  // answers in the endpoints' order.
  async eachEndpoint(work) {
    const answers = [];
    for (let i = 0; i < this.#pools.length; i += 1) {
      if (this.#pools[i]) answers.push(await work(this.#pools[i], this.#endpoints[i]));
    }
    return answers;
  }

  // Per endpoint: its connections and the operations it served so far.
  spread() {
    return this.#endpoints.map((endpoint, i) => ({ endpoint, connections: this.#limits[i], operations: this.#served[i] }));
  }

  async end() {
    await Promise.all(this.#pools.map((pool) => pool?.end()));
  }
}

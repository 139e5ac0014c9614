// The OrientDB offline import: writes a whole new plocal database, in a directory of its own, through the embedded
// engine of the server's own jars, holding exactly what the online import stores (adapters/orientdb/adapter.js):
// the namespace's classes (its script, as given), the marker, Profile vertices whose fields are the documents'
// (integers as LONG, as orientjs sends them, strings as STRING) and each relation as a lightweight edge, the
// target's RID in the source's out_Knows bag and the source's RID in the target's in_Knows bag.
//
//   java -cp <lib>/*:<classes> OfflineImport <databases dir> <database> <staging dir>
//
// The staging directory holds namespace.sql, marker.json, profiles.jsonl (one document a line) and relations.tsv
// (a source key, a tab, a target key a line). Prints the time of each step as JSON; exits 1 with the reason on
// stderr. The caller runs it with storage.useWAL=false: a failed import is thrown away, not recovered (the engine
// still tracks each atomic operation's page changes).
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.orientechnologies.orient.core.config.OGlobalConfiguration;
import com.orientechnologies.orient.core.db.ODatabaseSession;
import com.orientechnologies.orient.core.db.ODatabaseType;
import com.orientechnologies.orient.core.db.OrientDB;
import com.orientechnologies.orient.core.db.OrientDBConfig;
import com.orientechnologies.orient.core.db.record.ridbag.ORidBag;
import com.orientechnologies.orient.core.id.ORecordId;
import com.orientechnologies.orient.core.record.impl.ODocument;
import com.orientechnologies.orient.core.storage.ridbag.sbtree.OSBTreeRidBag;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;

public final class OfflineImport {
  private static final String PROFILE = "Profile";
  private static final String OUT_EDGES = "out_Knows";
  private static final String IN_EDGES = "in_Knows";
  private static final String USER = "admin";
  // Profiles per transaction: one commit per record would cost a commit each.
  private static final int PROFILES_PER_TX = 1000;
  // The size from which the engine keeps a bag in its B-tree rather than in the record.
  private static final int TREE_BAG =
      OGlobalConfiguration.RID_BAG_EMBEDDED_TO_SBTREEBONSAI_THRESHOLD.getValueAsInteger();

  private final HashMap<String, Integer> vertexByKey = new HashMap<>();
  private int[] clusters = new int[1 << 16];
  private long[] positions = new long[1 << 16];
  private int vertices = 0;
  private int[] from = new int[1 << 16];
  private int[] to = new int[1 << 16];
  private int relations = 0;

  public static void main(String[] args) throws Exception {
    if (args.length != 3) {
      System.err.println("usage: OfflineImport <databases dir> <database> <staging dir>");
      System.exit(2);
    }
    try {
      new OfflineImport().run(Path.of(args[0]), args[1], Path.of(args[2]));
    } catch (Failure failure) {
      System.err.println(failure.getMessage());
      System.exit(1);
    }
  }

  private static final class Failure extends Exception {
    Failure(String message) {
      super(message);
    }
  }

  private void run(Path databases, String name, Path staging) throws Exception {
    long begin = System.nanoTime();
    try (OrientDB orient = new OrientDB("embedded:" + databases, OrientDBConfig.defaultConfig())) {
      orient.execute("CREATE DATABASE " + name + " plocal USERS (" + USER + " IDENTIFIED BY '" + USER + "' ROLE admin)");
      try (ODatabaseSession db = orient.open(name, USER, USER)) {
        db.execute("sql", Files.readString(staging.resolve("namespace.sql"))).close();
        db.command("UPDATE Marker SET json = ?", Files.readString(staging.resolve("marker.json")).trim()).close();
        long schema = System.nanoTime();
        readProfiles(db, staging.resolve("profiles.jsonl"));
        long profiles = System.nanoTime();
        readRelations(staging.resolve("relations.tsv"));
        writeBags(db);
        // A database the server creates has no users: the server's root works in it.
        db.command("DELETE FROM OUser WHERE name = ?", USER).close();
        long bags = System.nanoTime();
        System.out.printf("{\"schemaMs\":%d,\"profilesMs\":%d,\"relationsMs\":%d,\"vertices\":%d,\"relations\":%d}%n",
            ms(schema - begin), ms(profiles - schema), ms(bags - profiles), vertices, relations);
      }
    }
  }

  private static long ms(long nanos) {
    return Math.round(nanos / 1e6);
  }

  // Each line a JSON object of string and integer fields, in the order the online import sends them.
  private void readProfiles(ODatabaseSession db, Path file) throws IOException, Failure {
    JsonFactory json = new JsonFactory();
    ODocument[] batch = new ODocument[PROFILES_PER_TX];
    int pending = 0;
    long line = 0;
    try (BufferedReader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      for (String text = reader.readLine(); text != null; text = reader.readLine()) {
        line += 1;
        if (pending == 0) db.begin();
        batch[pending++] = profile(json, text, file, line);
        if (pending == PROFILES_PER_TX) {
          commit(db, batch, pending);
          pending = 0;
        }
      }
    }
    if (pending > 0) commit(db, batch, pending);
  }

  private static ODocument profile(JsonFactory json, String text, Path file, long line) throws IOException, Failure {
    ODocument doc = new ODocument(PROFILE);
    try (JsonParser parser = json.createParser(text)) {
      if (parser.nextToken() != JsonToken.START_OBJECT) throw new Failure(file + ":" + line + ": not a JSON object");
      for (JsonToken token = parser.nextToken(); token == JsonToken.FIELD_NAME; token = parser.nextToken()) {
        String field = parser.getCurrentName();
        JsonToken value = parser.nextToken();
        if (value == JsonToken.VALUE_STRING) {
          doc.field(field, parser.getText());
        } else if (value == JsonToken.VALUE_NUMBER_INT) {
          doc.field(field, parser.getLongValue());
        } else {
          throw new Failure(file + ":" + line + ": field " + field + " is neither a string nor an integer");
        }
      }
    }
    return doc;
  }

  // The RIDs are final once the transaction commits.
  private void commit(ODatabaseSession db, ODocument[] batch, int count) throws Failure {
    for (int i = 0; i < count; i += 1) db.save(batch[i]);
    db.commit();
    for (int i = 0; i < count; i += 1) {
      ORecordId rid = (ORecordId) batch[i].getIdentity();
      String key = batch[i].field("_key");
      if (key == null) throw new Failure("a profile has no _key");
      if (vertices == clusters.length) {
        clusters = Arrays.copyOf(clusters, vertices * 2);
        positions = Arrays.copyOf(positions, vertices * 2);
      }
      clusters[vertices] = rid.getClusterId();
      positions[vertices] = rid.getClusterPosition();
      // A repeated key makes a second vertex, as online, where the unique key index then fails.
      vertexByKey.put(key, vertices);
      vertices += 1;
      batch[i] = null;
    }
  }

  private void readRelations(Path file) throws IOException, Failure {
    try (BufferedReader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      for (String text = reader.readLine(); text != null; text = reader.readLine()) {
        int tab = text.indexOf('\t');
        int source = vertex(text.substring(0, tab), text);
        int target = vertex(text.substring(tab + 1), text);
        if (relations == from.length) {
          from = Arrays.copyOf(from, relations * 2);
          to = Arrays.copyOf(to, relations * 2);
        }
        from[relations] = source;
        to[relations] = target;
        relations += 1;
      }
    }
  }

  private int vertex(String key, String relation) throws Failure {
    Integer vertex = vertexByKey.get(key);
    if (vertex == null) {
      throw new Failure("relation " + relation.replace("\t", " -> ") + " names profile " + key
          + ", which was not imported; a relation needs both profiles");
    }
    return vertex;
  }

  // Every vertex with relations gets both its bags, their RIDs in ascending order, as the online import writes them;
  // a bag of TREE_BAG entries or more is a B-tree bag, as the engine makes it. The engine gives each new B-tree bag
  // an id below every earlier one, and places an entry in its global B-tree by its bag's id, then its RID: bags
  // filled as they are created would each go in front of every entry written before, each entry an insertion at
  // the front of a leaf that moves the rest of the leaf. So the first pass saves each vertex with its small bags
  // complete and its B-tree bags empty, which creates them, and the second fills the B-tree bags from the last
  // created to the first, one save each: every entry then goes after all the others, at the end of the last leaf
  // (medium's importer: 53 CPU seconds before, 44 so; full's finished in 10 minutes).
  private void writeBags(ODatabaseSession db) {
    int[][] outgoing = adjacency(from, to);
    int[][] incoming = adjacency(to, from);
    // Per B-tree bag: its id (negative) in the high bits, its vertex and field below, so that sorting orders them.
    long[] trees = new long[1 << 12];
    int count = 0;
    for (int vertex = 0; vertex < vertices; vertex += 1) {
      int[] out = list(outgoing, vertex);
      int[] in = list(incoming, vertex);
      if (out.length == 0 && in.length == 0) continue;
      ODocument doc = db.load(rid(vertex));
      if (out.length > 0) doc.field(OUT_EDGES, out.length < TREE_BAG ? bag(out) : new ORidBag(new OSBTreeRidBag()));
      if (in.length > 0) doc.field(IN_EDGES, in.length < TREE_BAG ? bag(in) : new ORidBag(new OSBTreeRidBag()));
      db.save(doc);
      for (int field = 0; field < 2; field += 1) {
        if ((field == 0 ? out : in).length < TREE_BAG) continue;
        long id = ((ORidBag) doc.field(field == 0 ? OUT_EDGES : IN_EDGES)).getPointer().getRootPointer().getPageIndex();
        if (count == trees.length) trees = Arrays.copyOf(trees, count * 2);
        trees[count++] = (id << 32) | ((long) vertex << 1) | field;
      }
    }
    Arrays.sort(trees, 0, count);
    for (int i = 0; i < count; i += 1) {
      int vertex = (int) ((trees[i] & 0xffffffffL) >>> 1);
      boolean out = (trees[i] & 1) == 0;
      ODocument doc = db.load(rid(vertex));
      ORidBag tree = doc.field(out ? OUT_EDGES : IN_EDGES);
      for (ORecordId target : sorted(list(out ? outgoing : incoming, vertex))) tree.add(target);
      db.save(doc);
    }
  }

  private ORecordId rid(int vertex) {
    return new ORecordId(clusters[vertex], positions[vertex]);
  }

  private ORidBag bag(int[] list) {
    ORidBag bag = new ORidBag();
    for (ORecordId target : sorted(list)) bag.add(target);
    return bag;
  }

  private ORecordId[] sorted(int[] list) {
    long[] order = new long[list.length];
    for (int i = 0; i < list.length; i += 1) order[i] = ((long) clusters[list[i]] << 40) | positions[list[i]];
    Arrays.sort(order);
    ORecordId[] rids = new ORecordId[order.length];
    for (int i = 0; i < order.length; i += 1) {
      rids[i] = new ORecordId((int) (order[i] >>> 40), order[i] & ((1L << 40) - 1));
    }
    return rids;
  }

  // { offsets, lists }: the ends of each vertex's relations by `sources` (one counting sort).
  private int[][] adjacency(int[] sources, int[] targets) {
    int[] offsets = new int[vertices + 1];
    for (int i = 0; i < relations; i += 1) offsets[sources[i] + 1] += 1;
    for (int v = 0; v < vertices; v += 1) offsets[v + 1] += offsets[v];
    int[] next = Arrays.copyOf(offsets, vertices);
    int[] lists = new int[relations];
    for (int i = 0; i < relations; i += 1) lists[next[sources[i]]++] = targets[i];
    return new int[][] {offsets, lists};
  }

  private static int[] list(int[][] adjacency, int vertex) {
    return Arrays.copyOfRange(adjacency[1], adjacency[0][vertex], adjacency[0][vertex + 1]);
  }
}

// A YCSB binding for PostgreSQL that stores each record as one jsonb document, as db-shootout's PostgreSQL adapter
// stores the mixed suite's documents: table (ycsb_key text PRIMARY KEY, doc jsonb). Written for
// benchmarks/ycsb.js, which compiles it against YCSB 0.17.0's core from Maven Central; YCSB's own postgrenosql
// binding is not published there. Like every other YCSB binding, and unlike postgrenosql's, it opens one
// connection per YCSB thread (YCSB makes one DB instance per thread and calls init() on it).
//
// Properties: db.url (jdbc:postgresql://host:port/database), db.user, db.passwd, table (usertable).
// A read returns every field of the document (or those asked for); an update merges the fields it is given into
// the document (all of them with YCSB's writeallfields=true, as the mixed suite replaces whole documents).
package dbshootout.ycsb;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.Vector;

import org.codehaus.jackson.map.ObjectMapper;
import org.codehaus.jackson.type.TypeReference;

import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.DBException;
import site.ycsb.Status;
import site.ycsb.StringByteIterator;

public class JsonbClient extends DB {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final TypeReference<HashMap<String, String>> FIELDS = new TypeReference<HashMap<String, String>>() { };

  private Connection connection;
  private PreparedStatement read;
  private PreparedStatement update;
  private PreparedStatement insert;
  private PreparedStatement delete;
  private PreparedStatement scan;

  @Override
  public void init() throws DBException {
    Properties props = getProperties();
    String table = props.getProperty("table", "usertable");
    try {
      connection = DriverManager.getConnection(props.getProperty("db.url"), props.getProperty("db.user", "postgres"),
          props.getProperty("db.passwd", ""));
      connection.setAutoCommit(true);
      read = connection.prepareStatement("SELECT doc::text FROM " + table + " WHERE ycsb_key = ?");
      update = connection.prepareStatement("UPDATE " + table + " SET doc = doc || ?::jsonb WHERE ycsb_key = ?");
      insert = connection.prepareStatement("INSERT INTO " + table + " (ycsb_key, doc) VALUES (?, ?::jsonb)");
      delete = connection.prepareStatement("DELETE FROM " + table + " WHERE ycsb_key = ?");
      scan = connection.prepareStatement("SELECT doc::text FROM " + table + " WHERE ycsb_key >= ? ORDER BY ycsb_key LIMIT ?");
    } catch (SQLException e) {
      throw new DBException(e);
    }
  }

  @Override
  public void cleanup() throws DBException {
    try {
      if (connection != null) connection.close();
    } catch (SQLException e) {
      throw new DBException(e);
    }
  }

  private static void putFields(String doc, Set<String> fields, Map<String, ByteIterator> result) throws Exception {
    HashMap<String, String> all = JSON.readValue(doc, FIELDS);
    if (fields != null) all.keySet().retainAll(fields);
    StringByteIterator.putAllAsByteIterators(result, all);
  }

  private static String json(Map<String, ByteIterator> values) throws Exception {
    return JSON.writeValueAsString(StringByteIterator.getStringMap(values));
  }

  @Override
  public Status read(String table, String key, Set<String> fields, Map<String, ByteIterator> result) {
    try {
      read.setString(1, key);
      try (ResultSet rows = read.executeQuery()) {
        if (!rows.next()) return Status.NOT_FOUND;
        putFields(rows.getString(1), fields, result);
        return Status.OK;
      }
    } catch (Exception e) {
      System.err.println("read " + key + ": " + e);
      return Status.ERROR;
    }
  }

  @Override
  public Status scan(String table, String startkey, int recordcount, Set<String> fields,
      Vector<HashMap<String, ByteIterator>> result) {
    try {
      scan.setString(1, startkey);
      scan.setInt(2, recordcount);
      try (ResultSet rows = scan.executeQuery()) {
        while (rows.next()) {
          HashMap<String, ByteIterator> record = new HashMap<>();
          putFields(rows.getString(1), fields, record);
          result.add(record);
        }
        return Status.OK;
      }
    } catch (Exception e) {
      System.err.println("scan " + startkey + ": " + e);
      return Status.ERROR;
    }
  }

  @Override
  public Status update(String table, String key, Map<String, ByteIterator> values) {
    try {
      update.setString(1, json(values));
      update.setString(2, key);
      return update.executeUpdate() == 1 ? Status.OK : Status.NOT_FOUND;
    } catch (Exception e) {
      System.err.println("update " + key + ": " + e);
      return Status.ERROR;
    }
  }

  @Override
  public Status insert(String table, String key, Map<String, ByteIterator> values) {
    try {
      insert.setString(1, key);
      insert.setString(2, json(values));
      return insert.executeUpdate() == 1 ? Status.OK : Status.ERROR;
    } catch (Exception e) {
      System.err.println("insert " + key + ": " + e);
      return Status.ERROR;
    }
  }

  @Override
  public Status delete(String table, String key) {
    try {
      delete.setString(1, key);
      return delete.executeUpdate() == 1 ? Status.OK : Status.NOT_FOUND;
    } catch (Exception e) {
      System.err.println("delete " + key + ": " + e);
      return Status.ERROR;
    }
  }
}

// The one hive-llap type that Hive's function registry needs to load (its
// get_splits function names it), missing from the jars the pyspark wheel
// ships. Without it the registry fails to load the first time a Thrift server
// thread builds a Hive client, and every later attempt waits forever (see
// sqc/servers). sqc.servers compiles it with the JDK's javac into
// .state/hive_llap_stub/classes the first time a Thrift server starts:
//   javac --release 8 -d .state/hive_llap_stub/classes conf/hive_llap_stub/LlapSigner.java
package org.apache.hadoop.hive.llap.security;

public interface LlapSigner {
  interface Signable {}
}

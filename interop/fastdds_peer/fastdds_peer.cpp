// A ROS 2 peer on eProsima Fast DDS (Debian's libfastrtps-dev 2.x), written without any of
// ccd_guard's code or ROS 2's: the two message types are hand-written TopicDataTypes that
// use Fast CDR for plain CDR (XCDR1, final structs, little endian), with the ROS 2 DDS
// names (topic "rt/<name>", type "<pkg>::msg::dds_::<Name>_") and ROS-like QoS (reliable,
// volatile, keep last 10). Only UDPv4 is used (no shared memory), so a network namespace
// that has just the loopback interface holds everything.
//
// Usage: fastdds_peer TRAJECTORY.txt [TIMEOUT_S]
//
// TRAJECTORY.txt, one item a line (blank lines and lines starting with # are ignored):
//     stamp SEC NANOSEC                        header.stamp (default 0 0)
//     frame FRAME_ID                           header.frame_id (default empty)
//     joints NAME...                           joint_names
//     point SEC NANOSEC POSITION...            one JointTrajectoryPoint (time_from_start)
//
// It publishes the trajectory on rt/planned_trajectory once the node's reader and the
// node's verdict writer (rt/ccd_guard/verdict) are matched, waits for one verdict, prints
// it as one JSON line (NaN and infinities as null) and exits 0. On a timeout (each match
// and the verdict: TIMEOUT_S each, default 30) it prints why on stderr and exits 1; on
// bad input or a DDS error it exits 2. ROS_DOMAIN_ID selects the domain (default 0).
//
// Build: g++ -std=c++17 -O1 fastdds_peer.cpp -o fastdds_peer -lfastrtps -lfastcdr

#include <fastcdr/Cdr.h>
#include <fastcdr/FastBuffer.h>
#include <fastcdr/exceptions/BadParamException.h>
#include <fastdds/dds/domain/DomainParticipant.hpp>
#include <fastdds/dds/domain/DomainParticipantFactory.hpp>
#include <fastdds/dds/publisher/DataWriter.hpp>
#include <fastdds/dds/publisher/Publisher.hpp>
#include <fastdds/dds/subscriber/DataReader.hpp>
#include <fastdds/dds/subscriber/SampleInfo.hpp>
#include <fastdds/dds/subscriber/Subscriber.hpp>
#include <fastdds/dds/topic/Topic.hpp>
#include <fastdds/dds/topic/TopicDataType.hpp>
#include <fastdds/dds/topic/TypeSupport.hpp>
#include <fastdds/rtps/transport/UDPv4TransportDescriptor.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

using namespace eprosima::fastdds::dds;
using eprosima::fastcdr::Cdr;
using eprosima::fastcdr::FastBuffer;
using eprosima::fastrtps::rtps::SerializedPayload_t;
using eprosima::fastrtps::rtps::InstanceHandle_t;

// ---------------------------------------------------------------- the messages

struct Time { int32_t sec = 0; uint32_t nanosec = 0; };               // builtin_interfaces/Time, /Duration
struct Header { Time stamp; std::string frame_id; };                   // std_msgs/Header
struct JointTrajectoryPoint {                                          // trajectory_msgs/JointTrajectoryPoint
    std::vector<double> positions, velocities, accelerations, effort;
    Time time_from_start;
};
struct JointTrajectory {                                               // trajectory_msgs/JointTrajectory
    Header header;
    std::vector<std::string> joint_names;
    std::vector<JointTrajectoryPoint> points;
};
struct Contact {                                                       // ccd_guard/Contact
    std::string link, other;
    double time_of_contact = 0, time_of_separation = 0;
    double point[3] = {0, 0, 0}, normal[3] = {0, 0, 0};              // geometry_msgs Point, Vector3
    double max_penetration_depth = 0;
};
struct CollisionVerdict {                                              // ccd_guard/CollisionVerdict
    Header header;
    std::string source;
    Time trajectory_stamp;
    std::string verdict;
    bool certified = false;
    std::string method;
    double time_of_contact = 0;
    int32_t segment_index = 0;
    std::vector<Contact> contacts;
    double max_penetration_depth = 0, min_clearance = 0, tolerance = 0, elapsed_ms = 0;
    std::string error;
};

// Field by field, in .msg order; Fast CDR aligns each primitive to its size, counted from
// the end of the 4-byte encapsulation header, and writes strings with their terminating NUL.
static void write(Cdr& c, const Time& t) { c << t.sec << t.nanosec; }
static void write(Cdr& c, const Header& h) { write(c, h.stamp); c << h.frame_id; }
static void write(Cdr& c, const JointTrajectory& m) {
    write(c, m.header);
    c << m.joint_names;
    c << static_cast<uint32_t>(m.points.size());
    for (const auto& p : m.points) {
        c << p.positions << p.velocities << p.accelerations << p.effort;
        write(c, p.time_from_start);
    }
}

static void read(Cdr& c, Time& t) { c >> t.sec >> t.nanosec; }
static void read(Cdr& c, Header& h) { read(c, h.stamp); c >> h.frame_id; }
static void read(Cdr& c, CollisionVerdict& m) {
    read(c, m.header);
    c >> m.source;
    read(c, m.trajectory_stamp);
    c >> m.verdict >> m.certified >> m.method >> m.time_of_contact >> m.segment_index;
    uint32_t n = 0;
    c >> n;
    m.contacts.assign(n, Contact{});
    for (auto& k : m.contacts) {
        c >> k.link >> k.other >> k.time_of_contact >> k.time_of_separation;
        for (double& v : k.point) c >> v;
        for (double& v : k.normal) c >> v;
        c >> k.max_penetration_depth;
    }
    c >> m.max_penetration_depth >> m.min_clearance >> m.tolerance >> m.elapsed_ms >> m.error;
}

// The peer only publishes trajectories and only takes verdicts.
static void read(Cdr&, JointTrajectory&) { throw eprosima::fastcdr::exception::BadParamException("not read here"); }
static void write(Cdr&, const CollisionVerdict&) { throw eprosima::fastcdr::exception::BadParamException("not written here"); }

// A TopicDataType for a keyless message type T with write() and read() above.
template <typename T>
class RosType : public TopicDataType {
public:
    explicit RosType(const char* dds_name) {
        setName(dds_name);
        m_typeSize = 64 * 1024;         // a preallocation hint only: the endpoints reallocate
        m_isGetKeyDefined = false;
        auto_fill_type_object(false);   // announce the type by its name only, as ROS 2 does
        auto_fill_type_information(false);
    }

    bool serialize(void* data, SerializedPayload_t* payload) override {
        FastBuffer buffer(reinterpret_cast<char*>(payload->data), payload->max_size);
        Cdr cdr(buffer, Cdr::LITTLE_ENDIANNESS, Cdr::DDS_CDR);
        payload->encapsulation = CDR_LE;
        try {
            cdr.serialize_encapsulation();   // 00 01 00 00: plain CDR, little endian
            write_message(cdr, *static_cast<T*>(data));
        } catch (const eprosima::fastcdr::exception::Exception&) {
            return false;
        }
        payload->length = static_cast<uint32_t>(cdr.getSerializedDataLength());
        return true;
    }

    bool deserialize(SerializedPayload_t* payload, void* data) override {
        FastBuffer buffer(reinterpret_cast<char*>(payload->data), payload->length);
        Cdr cdr(buffer, Cdr::DEFAULT_ENDIAN, Cdr::DDS_CDR);
        try {
            cdr.read_encapsulation();        // takes the endianness from the header
            read_message(cdr, *static_cast<T*>(data));
        } catch (const eprosima::fastcdr::exception::Exception& e) {
            std::cerr << "fastdds_peer: cannot deserialize " << getName() << ": " << e.what() << "\n";
            return false;
        }
        return true;
    }

    std::function<uint32_t()> getSerializedSizeProvider(void* data) override {
        return [data]() {                    // serialize into a growing buffer and measure
            FastBuffer buffer;
            Cdr cdr(buffer, Cdr::LITTLE_ENDIANNESS, Cdr::DDS_CDR);
            cdr.serialize_encapsulation();
            write_message(cdr, *static_cast<T*>(data));
            return static_cast<uint32_t>(cdr.getSerializedDataLength());
        };
    }

    void* createData() override { return new T(); }
    void deleteData(void* data) override { delete static_cast<T*>(data); }
    bool getKey(void*, InstanceHandle_t*, bool) override { return false; }

private:
    static void write_message(Cdr& c, const T& m) { write(c, m); }
    static void read_message(Cdr& c, T& m) { read(c, m); }
};

// ---------------------------------------------------------------- input and output

static bool parse_trajectory(const char* path, JointTrajectory& m, std::string& why) {
    std::ifstream in(path);
    if (!in) { why = std::string("cannot open ") + path; return false; }
    std::string line;
    for (int number = 1; std::getline(in, line); ++number) {
        std::istringstream words(line);
        std::string key;
        if (!(words >> key) || key[0] == '#') continue;
        bool ok = true;
        if (key == "stamp") {
            ok = static_cast<bool>(words >> m.header.stamp.sec >> m.header.stamp.nanosec);
        } else if (key == "frame") {
            ok = static_cast<bool>(words >> m.header.frame_id);
        } else if (key == "joints") {
            for (std::string name; words >> name;) m.joint_names.push_back(name);
        } else if (key == "point") {
            JointTrajectoryPoint p;
            ok = static_cast<bool>(words >> p.time_from_start.sec >> p.time_from_start.nanosec);
            for (std::string v; ok && words >> v;) {
                char* end = nullptr;
                p.positions.push_back(std::strtod(v.c_str(), &end));   // round-trips repr() output
                ok = end && *end == '\0';
            }
            m.points.push_back(p);
        } else {
            ok = false;
        }
        if (!ok || !(words >> std::ws).eof()) { why = std::string(path) + ":" + std::to_string(number) + ": cannot read: " + line; return false; }
    }
    return true;
}

static std::string json(const std::string& s) {
    std::string out = "\"";
    for (unsigned char ch : s) {
        if (ch == '"' || ch == '\\') { out += '\\'; out += static_cast<char>(ch); }
        else if (ch < 0x20) { char u[8]; std::snprintf(u, sizeof u, "\\u%04x", ch); out += u; }
        else out += static_cast<char>(ch);
    }
    return out + "\"";
}
static std::string json(double v) {
    if (!std::isfinite(v)) return "null";
    char s[32];
    std::snprintf(s, sizeof s, "%.17g", v);
    return s;
}
static std::string json(const Time& t) {
    return "{\"sec\": " + std::to_string(t.sec) + ", \"nanosec\": " + std::to_string(t.nanosec) + "}";
}
static std::string json(const double (&v)[3]) {
    return "[" + json(v[0]) + ", " + json(v[1]) + ", " + json(v[2]) + "]";
}
static std::string json(const CollisionVerdict& m) {
    std::string contacts;
    for (const auto& k : m.contacts) {
        contacts += (contacts.empty() ? "" : ", ") + std::string("{\"link\": ") + json(k.link) + ", \"other\": " + json(k.other) +
                    ", \"time_of_contact\": " + json(k.time_of_contact) + ", \"time_of_separation\": " + json(k.time_of_separation) +
                    ", \"point\": " + json(k.point) + ", \"normal\": " + json(k.normal) +
                    ", \"max_penetration_depth\": " + json(k.max_penetration_depth) + "}";
    }
    return "{\"header\": {\"stamp\": " + json(m.header.stamp) + ", \"frame_id\": " + json(m.header.frame_id) + "}" +
           ", \"source\": " + json(m.source) + ", \"trajectory_stamp\": " + json(m.trajectory_stamp) +
           ", \"verdict\": " + json(m.verdict) + ", \"certified\": " + (m.certified ? "true" : "false") +
           ", \"method\": " + json(m.method) + ", \"time_of_contact\": " + json(m.time_of_contact) +
           ", \"segment_index\": " + std::to_string(m.segment_index) + ", \"contacts\": [" + contacts + "]" +
           ", \"max_penetration_depth\": " + json(m.max_penetration_depth) + ", \"min_clearance\": " + json(m.min_clearance) +
           ", \"tolerance\": " + json(m.tolerance) + ", \"elapsed_ms\": " + json(m.elapsed_ms) + ", \"error\": " + json(m.error) + "}";
}

// ---------------------------------------------------------------- DDS

template <typename Matched>
static bool wait_until(double timeout_s, Matched matched) {
    auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_s);
    while (!matched()) {
        if (std::chrono::steady_clock::now() >= deadline) return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return true;
}

static int run(const JointTrajectory& trajectory, double timeout_s) {
    const char* domain_env = std::getenv("ROS_DOMAIN_ID");
    const DomainId_t domain = domain_env && *domain_env ? std::atoi(domain_env) : 0;

    DomainParticipantQos pqos = PARTICIPANT_QOS_DEFAULT;
    pqos.name("fastdds_peer");
    pqos.transport().use_builtin_transports = false;   // UDPv4 only: no shared memory files
    pqos.transport().user_transports.push_back(std::make_shared<eprosima::fastdds::rtps::UDPv4TransportDescriptor>());
    auto* factory = DomainParticipantFactory::get_instance();
    DomainParticipant* participant = factory->create_participant(domain, pqos);
    if (!participant) { std::cerr << "fastdds_peer: cannot create a participant\n"; return 2; }

    TypeSupport trajectory_type(new RosType<JointTrajectory>("trajectory_msgs::msg::dds_::JointTrajectory_"));
    TypeSupport verdict_type(new RosType<CollisionVerdict>("ccd_guard::msg::dds_::CollisionVerdict_"));
    trajectory_type.register_type(participant);
    verdict_type.register_type(participant);
    Topic* trajectory_topic = participant->create_topic("rt/planned_trajectory", trajectory_type.get_type_name(), TOPIC_QOS_DEFAULT);
    Topic* verdict_topic = participant->create_topic("rt/ccd_guard/verdict", verdict_type.get_type_name(), TOPIC_QOS_DEFAULT);
    Publisher* publisher = participant->create_publisher(PUBLISHER_QOS_DEFAULT);
    Subscriber* subscriber = participant->create_subscriber(SUBSCRIBER_QOS_DEFAULT);

    // ROS 2's default QoS profile, offered and requested as plain CDR (XCDR1).
    DataWriterQos wqos = DATAWRITER_QOS_DEFAULT;
    wqos.reliability().kind = RELIABLE_RELIABILITY_QOS;
    wqos.durability().kind = VOLATILE_DURABILITY_QOS;
    wqos.history().kind = KEEP_LAST_HISTORY_QOS;
    wqos.history().depth = 10;
    wqos.representation().m_value = {XCDR_DATA_REPRESENTATION};
    wqos.endpoint().history_memory_policy = eprosima::fastrtps::rtps::PREALLOCATED_WITH_REALLOC_MEMORY_MODE;
    DataReaderQos rqos = DATAREADER_QOS_DEFAULT;
    rqos.reliability().kind = RELIABLE_RELIABILITY_QOS;
    rqos.durability().kind = VOLATILE_DURABILITY_QOS;
    rqos.history().kind = KEEP_LAST_HISTORY_QOS;
    rqos.history().depth = 10;
    rqos.type_consistency().representation.m_value = {XCDR_DATA_REPRESENTATION};
    rqos.endpoint().history_memory_policy = eprosima::fastrtps::rtps::PREALLOCATED_WITH_REALLOC_MEMORY_MODE;

    DataReader* reader = subscriber->create_datareader(verdict_topic, rqos);
    DataWriter* writer = publisher->create_datawriter(trajectory_topic, wqos);
    if (!trajectory_topic || !verdict_topic || !reader || !writer) { std::cerr << "fastdds_peer: cannot create the endpoints\n"; return 2; }

    int status = 0;
    const auto t0 = std::chrono::steady_clock::now();
    auto elapsed = [&t0]() { return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); };
    const bool writer_matched = wait_until(timeout_s, [&]() {
        PublicationMatchedStatus s;
        return writer->get_publication_matched_status(s) == ReturnCode_t::RETCODE_OK && s.current_count > 0;
    });
    const bool reader_matched = writer_matched && wait_until(timeout_s, [&]() {
        SubscriptionMatchedStatus s;
        return reader->get_subscription_matched_status(s) == ReturnCode_t::RETCODE_OK && s.current_count > 0;
    });
    if (!writer_matched || !reader_matched) {
        std::cerr << "fastdds_peer: timeout after " << elapsed() << " s: no " << (writer_matched ? "writer of rt/ccd_guard/verdict" : "reader of rt/planned_trajectory")
                  << " matched (is the node running, with the same type name and compatible QoS?)\n";
        status = 1;
    } else {
        std::cerr << "fastdds_peer: matched after " << elapsed() << " s\n";
        // Matching is seen from this side only: give the node a moment to match our
        // endpoints too (its verdict writer would not send a verdict to an unknown reader).
        std::this_thread::sleep_for(std::chrono::milliseconds(250));
        JointTrajectory message = trajectory;
        if (!writer->write(&message)) {
            std::cerr << "fastdds_peer: write failed\n";
            status = 2;
        } else {
            // No wait for the acknowledgement first: Fast DDS sends no HEARTBEAT with the
            // DATA, so the node acknowledges only after the next periodic one (3 s).
            status = 1;
            const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_s);
            while (status == 1 && std::chrono::steady_clock::now() < deadline) {
                if (!reader->wait_for_unread_message(eprosima::fastrtps::Duration_t(0, 200000000))) continue;
                CollisionVerdict verdict;
                SampleInfo info;
                while (reader->take_next_sample(&verdict, &info) == ReturnCode_t::RETCODE_OK) {
                    if (!info.valid_data) continue;
                    std::cout << json(verdict) << std::endl;
                    std::cerr << "fastdds_peer: verdict after " << elapsed() << " s\n";
                    status = 0;
                    break;
                }
            }
            if (status) {
                const bool acked = writer->wait_for_acknowledgments(eprosima::fastrtps::Duration_t(0, 0)) == ReturnCode_t::RETCODE_OK;
                std::cerr << "fastdds_peer: timeout: no verdict within " << timeout_s << " s of publishing (the trajectory was "
                          << (acked ? "" : "not ") << "acknowledged by the node's reader)\n";
            }
        }
    }
    participant->delete_contained_entities();
    factory->delete_participant(participant);
    return status;
}

int main(int argc, char** argv) {
    if (argc < 2 || argc > 3) {
        std::cerr << "usage: fastdds_peer TRAJECTORY.txt [TIMEOUT_S]\n";
        return 2;
    }
    JointTrajectory trajectory;
    std::string why;
    if (!parse_trajectory(argv[1], trajectory, why)) {
        std::cerr << "fastdds_peer: " << why << "\n";
        return 2;
    }
    const double timeout_s = argc == 3 ? std::atof(argv[2]) : 30.0;
    if (!(timeout_s > 0)) { std::cerr << "fastdds_peer: bad timeout " << argv[2] << "\n"; return 2; }
    return run(trajectory, timeout_s);
}

import dns2 from 'dns2';

const { Packet } = dns2;

/** A DNS server on loopback (UDP) answering TXT questions from a table the test changes. */
export interface TestDnsServer {
  /** `127.0.0.1:port`, as DNS_SERVERS takes it. */
  address: string;
  /** TXT records by name (lower case); each record is one or more strings. Others: NXDOMAIN. */
  txt: Map<string, string[][]>;
  /** Answer SERVFAIL to everything while true. */
  failing: boolean;
  close(): Promise<void>;
}

export async function startDnsServer(): Promise<TestDnsServer> {
  const state = { failing: false, txt: new Map<string, string[][]>() };
  const server = dns2.createServer({
    udp: true,
    handle: (request, send) => {
      const response = Packet.createResponseFromRequest(request);
      const [question] = request.questions;
      const records =
        question === undefined ? undefined : state.txt.get(question.name.toLowerCase());
      if (state.failing) response.header.rcode = Packet.RCODE.SERVFAIL;
      else if (question === undefined || records === undefined) {
        response.header.rcode = Packet.RCODE.NXDOMAIN;
      } else if (question.type === Packet.TYPE.TXT) {
        for (const data of records) {
          const answer = new Packet.Resource(question.name, Packet.TYPE.TXT, Packet.CLASS.IN, 1);
          answer.data = data;
          response.answers.push(answer);
        }
      }
      send(response);
    },
  });
  const addresses = await server.listen({ udp: { port: 0, address: '127.0.0.1' } });
  const port = addresses.udp?.port;
  if (port === undefined) throw new Error('the DNS server did not listen');
  return {
    address: `127.0.0.1:${port}`,
    txt: state.txt,
    get failing() {
      return state.failing;
    },
    set failing(value: boolean) {
      state.failing = value;
    },
    close: () => server.close(),
  };
}

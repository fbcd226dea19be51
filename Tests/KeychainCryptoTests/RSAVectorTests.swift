import _CryptoExtras
import Foundation
import KeychainCrypto
import Testing

/// Raw RSA, EMSA-PKCS1-v1_5 and RSAES-OAEP against published vectors: RSA Laboratories'
/// PKCS #1 v2.1 OAEP examples (oaep-vect.txt, SHA-1, with their seeds), NIST CAVP's
/// SigGen15_186-3 (PKCS #1 v1.5 signatures), and the OAEP SHA-2 vectors pyca/cryptography
/// publishes (derived from NIST's, checked against Bouncy Castle) for the hashes swift-crypto's
/// OAEP lacks.
@Suite("RSA: published vectors")
struct RSAVectorTests {
    // MARK: RSAES-OAEP with SHA-1: encoding with the given seed, then the public operation

    /// oaep-vect.txt, Example 1: the 1024-bit key's modulus and exponent.
    static let example1Modulus = """
        a8b3b284af8eb50b387034a860f146c4919f318763cd6c5598c8ae4811a1e0abc4c7e0b082d693a5e7fced675cf4668512772c0cbc64a742c6c6\
        30f533c8cc72f62ae833c40bf25842e984bb78bdbf97c0107d55bdb662f5c4e0fab9845cb5148ef7392dd3aaff93ae1e6b667bb3d4247616d4f5\
        ba10d4cfd226de88d39f16fb
        """

    /// Examples 1.1 and 1.2: message, seed, ciphertext.
    static let example1: [(message: String, seed: String, ciphertext: String)] = [
        ("6628194e12073db03ba94cda9ef9532397d50dba79b987004afefe34", "18b776ea21069d69776a33e96bad48e1dda0a5ef",
         """
         354fe67b4a126d5d35fe36c777791a3f7ba13def484e2d3908aff722fad468fb21696de95d0be911c2d3174f8afcc201035f7b6d8e69402de5\
         451618c21a535fa9d7bfc5b8dd9fc243f8cf927db31322d6e881eaa91a996170e657a05a266426d98c88003f8477c1227094a0d9fa1e8c4024\
         309ce1ecccb5210035d47ac72e8a
         """),
        ("750c4047f547e8e41411856523298ac9bae245efaf1397fbe56f9dd5", "0cc742ce4a9b7f32f951bcb251efd925fe4fe35f",
         """
         640db1acc58e0568fe5407e5f9b701dff8c3c91e716c536fc7fcec6cb5b71c1165988d4a279e1577d730fc7a29932e3f00c81515236d8d8e31\
         017a7a09df4352d904cdeb79aa583adcc31ea698a4c05283daba9089be5491f67c1a4ee48dc74bbbe6643aef846679b4cb395a352d5ed11591\
         2df696ffe0702932946d71492b44
         """),
    ]

    @Test("oaep-vect.txt Examples 1.1 and 1.2: EME-OAEP with the seed, then m^e mod n, give the ciphertext")
    func oaepSHA1EncryptionExamples() throws {
        let modulus = try bytes(Self.example1Modulus)
        for example in Self.example1 {
            let encoded = try RSAOAEP.encode(try bytes(example.message), seed: try bytes(example.seed), hash: .sha1,
                                             modulusBytes: modulus.count)
            let ciphertext = try RSARaw.publicOperation(modulus: modulus, exponent: Data([1, 0, 1]), encoded)
            #expect(ciphertext.hex == (try bytes(example.ciphertext)).hex)
            #expect(RSAOAEP.decode(encoded, hash: .sha1) == (try bytes(example.message)))
        }
    }

    // MARK: RSAES-OAEP with SHA-224, SHA-384, SHA-512: decryption with the private key

    /// One key of pyca/cryptography's oaep-custom files with its first example.
    struct OAEPKey: Sendable, CustomTestStringConvertible {
        let hash: HashName
        let n, d, p, q: String
        let message, ciphertext: String
        var testDescription: String { hash.rawValue }
    }

    static let oaepKeys: [OAEPKey] = [
        OAEPKey(
            hash: .sha224,
            n: """
                e7dc0e293eb997a2de86fc3bcbff64bb109c53d3a556ae3331c2dd23f195002a8e92c3896921534dbdc889fb5087d3cf390f1e20f8721916\
                98ab85bb0334374aea5b3b87bb4123290f955708b665f719bd129f6d111d3c9f8ad8991a44fe50fc15e492c88b0783cbba117ac7d7d547c2\
                4eb125b665651a66ce7cb3aa71b50ecf30812bb513fdbf702584c18f50f32afabcf106f15fff5bada9644e03b987173fc5704fbdb95dda8d\
                b8c5ee8b3ab9cac196551b2e46f201ce45b27435657bb08f710b724c642f21fd324763d94b74fcc204bcf7c1cd8aa61e87467f0a0fdf98ef\
                950df8d63b1be5ab32ba85641e4279c4de9f67eb206f0ca92d3b7201d2783a43
                """,
            d: """
                3f19d890c90d618365e47ec9175fce5e4acb00d55cee1642c08c33fb104868df2c262d293c7f61588b0a04e36cab4aaddeed8a5996c416a7\
                dbacf29c4ee6eb156c6a9fecf4bd6980474971826181a69a4ea6bed4c40f9cec1eb18c196625808cdab8766a35cc39c63c417d94dddca1c6\
                f3fbaa33d5ac8a5ee85b6fda374ffb534b4f19f98da04bc631fe4cc1a89d1413ae78fc90a373335e6af3ddce66622cd226642c71118130de\
                813cffba6b14540444443ecd52d2708e294bc01adc0b6c1c72ceca2acf5830cb2bd96d90182de30fc8f20f1c09c4e53bc0547a4d83e5efe8\
                622498f188a36a1bb300823ce56a0520d5c7d9ddaaf5d691700c8ab7abfc8821
                """,
            p: """
                f9297813c8b9f2651e8b4875e0c46ec276433b26033bdd622578481755565680952b34acce90e2e76ce0ec3914286133c8d36fa39b44bc12\
                c0cf42b860b551c63d37609f4304475aa85d1446374d73f57df099a0a7032cdc605a4285fdbb802c8cf383ef0e64ebb7f3906d4a317cfd0d\
                ce9dad501936ec37ccf1eef543428267
                """,
            q: """
                ee39067754e22e34aed70b36a428950dcfe248d078c8729dfba68b339459d05bb474d4f2bf7ac6da918adbbf9851b2b0303f6e169e218a63\
                7adecf5575abe6ae942d374217895a27f4769afdf46f40b91054b8688ef2bbca23798c00bcf311d6cf31aa09327fefafa82afeb47ba0c3b1\
                5644e7f072033a75fd2a698e197477c5
                """,
            message: "6628194e12073db03ba94cda9ef9532397d50dba79b987004afefe34",
            ciphertext: """
                aa73ceb82580a54f772abdd552514545f4b7b4ab967d26c09d2b042a3f30393eb338d287969223450028aab8e9f57d7275755fefd41b8372\
                8103563e81a53645e4efe09317ac0443178238b5200554f166d2e45c39c6c434eed4bb97ca94eb170cbc25bb98f9edcfb0a1b67f10557b76\
                dac980feb805dc389232361084aefeda412431e3e3a71c71b014c24c206e52f805d34b3d08091f6176f37e32cb1876fa2f9eb0f36fabfdb3\
                603eeb317bd9163008b67e09da60aef2d2e66bb57b511dc9bf8ea4e7442a6bd0e000a7fc9845f008a2d49449d51b2da4d1049334acca6197\
                d7ad77a24814f57553d0dbbbf701cb9807a04ad4542facd91e8ed2fd6df7992d
                """),
        OAEPKey(
            hash: .sha384,
            n: """
                cc26bcf1dbc58031a6ab20b8953f996f0ac3a7c88e9efbdfd5b5036bc1954c2f205ad2360259ff589a958b9def0c484a2f624ee64743f90d\
                269b51ba4f6288f048a22a28c9cc98bc9101e86169e2e9880776d05558914e54dba574cf7a5034dedb09ea3e272e875a54443769d0885fbf\
                68970b5340e8b73687b325c9393d5caef0752e4bc6944c5126faea3b43de107c1727a03c6d2b27e46b798de9dc96d8baaaa5c8f4f993f767\
                9832747d7b98dfb2cde643b2616654ed5864902572335e1390c3149e5a84fd32b245597bbb84f1c80c57ccf669459af90728ee1ee260d517\
                e0cc71f94a1213c9aa73ab561e9614f15973b8c89682239d971bd8963b93e37b
                """,
            d: """
                b0d44508c131db0e26ad47945a4252666a4e7ac02f38ea3641679ee4f1329e609b87cf58d4c49b7665bf6ec587cf7db63440d4d2859c0cd7\
                253f9794e73a141efceae9d596a5cf0e5613eef2a1c2d840e92632e219eb128c520c889745fcbf2ee14f3f4442affcb17317fb5f7e2f01b0\
                4ba9b9378d9b85468857d63ceb858906ba4ed756acdd922579629339f28311a9af5982c19bafe32e56d9d4bc4a7001905001ffaab16a904d\
                1d9d79645ff1e084dead80356c1339149dc25a3555b866d33b3561175b7e4b91e9ced14f909b86e6f1c25e696f77c2add25d5218f14f86db\
                9e0f30d4e02ce619f25d481aafaaa3a2e4333c2df7041ad038ccb71593b9e531
                """,
            p: """
                e849179b5ced98316a86ad6c46572b18a2dd31500b8f04a784bf166d84b051a593bc1333e79ea9c1ef3190882aa9cab53594125ca7b66e45\
                89d80c2f3546beea1d7c32dd9b9210e166ec940b4c4007cb0ea1a9e6707a6c3fabda48299688e07ecbf41970e6576964ca9f33555d468a08\
                8bed853fd584f4bdd29e9af875369d37
                """,
            q: """
                e0fe57e942f72bbea26ec03cf50209cbf7ac13e71807ff6ba62cd83cb6f24c4f5b77f77c2ca8c3e72b473a97516dc91d8710abd305d1526e\
                165dddea225856c5f02d0a282920ba7059e8f15137f4f0c27f2985bed54751273ecf3ca9de76519c59f2e08bd937ccf88ea87838353b6eab\
                e76d77d9f36cf65b45e7d30f0e50addd
                """,
            message: "6628194e12073db03ba94cda9ef9532397d50dba79b987004afefe34",
            ciphertext: """
                c7dbfa84e358c2545bdc39afed1a4b9e2ef10802bb9c3988c0195660011a611e410d8929b2b23767b520bb4e560567b5261b1aca5b8a751e\
                c4874cb120ef5a95a552c6af2732604bb1a3638218a5793fb7f3894bbaa7abcf7f32196b30a93fd6461493784e4a969f8201617c34d257e7\
                638115ba13bebc7f0e361ed47055ea91a9f1786fac9d126ce405b1d214dd7c5ba8d787554ce7eb08dd44b073f8bfd519829dbf159e8d7a77\
                7557630a4ef6a78817d4efedcf2a93d6b0c26bbfc7e087f70d7318c2f63a3358d79a77e8654cacd09e72194d467e7533802b575b708b97da\
                5fe0a559a775bdca6e1589e65a1a79c9aeed78ded9f0cb55a3ccdbced2415d84
                """),
        OAEPKey(
            hash: .sha512,
            n: """
                c4d3a110fcf80599f5794cde8c3ad6854c3caf557985302e0cd058c603d33fb0ded1aaae9efdc145b44705d6bd4c71a1aeb04a5923e51954\
                f938ccde95733822062f34696ee7dce4dc9e5d991534dfd36b03db5f99b9afd4dfaf64b5c1b5a3a7548ffc209baf6675f5906a2b59e33e06\
                5b5c02c89b01bba0ea8a097a6886d6971b7573a6a7188977b2eb4aa63702306a727edc56d1f56135cb4326bee07600f52a131a64059a10b5\
                f448f1942f435f121dc439d4d203129e892152b1213d87ee1298b2fd25a14a2a9fefb4076cde8aa01e205b77b195c75395104bbad491d868\
                e1d266ce6051ccb8c15340546b1bff0158f9aa6acf0fba71e3e30e2f2d1906e5
                """,
            d: """
                628143a7bbe2e8f2bf6ea0b0f45f72032e3f64c49357bbe0201b99822861ee0b37c898f261b1bfab81e8d59c3e0ae707b2e499a0f91cec4b\
                a19af2b526f88e0c412a18c1f776650fc8f61d03c3203e3091eb513c0c346932516c772b9bb1ab20d06a6b156ab522c3404db144d6ecaa9b\
                05d80bb0981b0aeb22d6489e11780226a6ce7a72f67021de4ce9394b4ab5d43a59dfd1c1f60b9f3051eb709897333d65ab99d24fb92b2e45\
                1344a78bd3d41bbaebad42c97f9d67fb2e9cf6213932f6991d42b74eb973c99afaa564d032ca5380fa1c8ee9e86e92781b133ad7713a7ebd\
                1fa08c42c40bc58b28f21d4cd4516140f70630438f5cc154d3ebaa904cf0a721
                """,
            p: """
                ee043d8dc069675c9e8d66305bccfa767c5d825844c4a014ed92fcd1f74f38231bf2b6e8dbfbf31424d27e4eb8a071f94325a65fee587627\
                6c3779f63bfda9893c9b99f3bf3c24004eb63506a7a44338fdfe05c55acdc7e55d40b60112570ad2ebb585e14b90418422bdfaad14a266f6\
                cebe2ba7abd4513d0cd70b444df0fbbd
                """,
            q: """
                d3b2afba8fc1feecbc083ccb6e794d95e0b632ae82f81063c943973063378f901a1a8114e76c56cf73554dab9b26362f186b3ef5d5a2334f\
                675788ade9bc68a3332aded09ea081ac9f29dfde20692576bd1f3e650ccef3f1a4e47ed3f5be73c47a1d90fbd092fb4d9b8d750df861f69e\
                f1bc1f08d31a2fdd8fae4ea4992b1649
                """,
            message: "6628194e12073db03ba94cda9ef9532397d50dba79b987004afefe34",
            ciphertext: """
                7b7dccee97b43d4b6e214efb90c22d6679b8c144891d47f0674f6cdc94b8c4a87c1fab9ddd6a1d77d4c9d0487a071e2a0323acf7f04554b4\
                3952cfd49d1c642877a78c04dc8922240eee6afc5eb94896b83c3fc4c7e21c59f8fe1bcf03aa75110c86655e25d55b75476153e39e3a8001\
                7fa61c640838b5b27d03d5830746926bddd6434acacd0fcc03615c5ba850b591c673bc8e882d51465795cc9eaff1f4a65e70f9c92777f087\
                7c69c26c1e5cb8bf0ae87ab61ecef24d4349eb57a1c1a27004703038f2c56d9d4f408dedfb9e5263249be9edefd704c7aa9f6b3f6db0b61f\
                3848dd894e70a3f448ea6583f5d74b82ec2850ae1d0e335c22087cc468e5af64
                """),
    ]

    @Test("pyca's OAEP SHA-2 vectors: our OAEP over swift-crypto's private operation recovers the message", arguments: oaepKeys)
    func oaepSHA2Decryption(_ vector: OAEPKey) throws {
        let key = try _RSA.Signing.PrivateKey(n: try bytes(vector.n), e: Data([1, 0, 1]), d: try bytes(vector.d),
                                              p: try bytes(vector.p), q: try bytes(vector.q))
        let ciphertext = try bytes(vector.ciphertext)
        #expect(try RSAOAEP.decrypt(key, ciphertext, hash: vector.hash) == (try bytes(vector.message)))
        // The same block with one bit changed is refused (the padding no longer checks).
        var damaged = ciphertext
        damaged[damaged.count - 1] ^= 1
        #expect(throws: PrimitiveError.self) { try RSAOAEP.decrypt(key, damaged, hash: vector.hash) }
        // And what our encryption makes of the message, the private key reads back.
        let ours = try RSAOAEP.encrypt(key.publicKey, try bytes(vector.message), hash: vector.hash)
        #expect(try RSAOAEP.decrypt(key, ours, hash: vector.hash) == (try bytes(vector.message)))
    }

    // MARK: EMSA-PKCS1-v1_5 and the public operation: NIST CAVP SigGen15_186-3

    /// [mod = 1024] of SigGen15_186-3.rsp: the modulus and the public exponent 0x1001.
    static let sigGenModulus = """
        a3ecf80ff1804833c36a89a1583f58ef3332476a50a153e73ced17796139636045c131a6b17222ba8848f70150b18dfa390bfb1670ae982dfbc3\
        11fd0ede055564687af3805ca883944bb5ac9ec19b0e0cfbd9a314d70b17080c3d49b50cbf417062eb41bd639d67a5fb330ec55a0489fee08eee\
        c97ed487c114b20393fe0aef
        """

    /// The first SHA-1 and the first SHA-224 case of that modulus.
    static let sigGenCases: [(hash: HashName, message: String, signature: String)] = [
        (.sha1,
         """
         1018469fda81f41922cfdb2dca679f7f3a286f11ba448ab71e4e02cca994c0242caec9416e57c0cad07cab383193fad3102ec5ddf0d0550d01\
         ffe63ffc9aab694f6d13d17a034b7db9bb04ebe31e76039270a44a8485e25841d7958cfed53bfec27dabb5c72c9d1b23b56cada7b11bf70817\
         97c03c0d3b8227fd991d77ea78cb
         """,
         """
         147A8797D9D653F52D210135F61BBDFE59698D755B076230F2B252E7792C86121469FAB7B410789DF4F193A76E8BE99A2162E422C6A56106FA\
         4E2FE5ABAFC542FF1A899D8580F9F6B4CD29A8310CD34964CE22BBAD9618D97E4C36695B246BDD0C0D5D0C75D044265E6F275A272718B0C2B9\
         3974DC76DDCCA985BEF994CE67BD
         """),
        (.sha224,
         """
         ee957a3107024f9a51d212fc6ff18d46a26a2d80df2cb6b1250f36010d12381ba3e639d574b16013e80c69e8d24de3ff460c9b3aabe0589810\
         6ac85cc495bb6c201b8ff7a84ceb5a530bb14526192d1907969395d1c4a8b2a40fbfcb7f4ae701103c63deca5b5a3939d7d05992dad55d8f0f\
         fcda79610fc78605019666ba24a4
         """,
         """
         10FAFCF4B543C9D58C1658A9D96E2D3BA1276406951B2D2EA5A7930FA18A88F88A0EBDC53038C0277F7F00E699B5AA4977B25D42EDACF3ED6E\
         BA656C177BBBA622B710E5BD78DE381F626E38B5D49FA06FD5E0E9ACB5FC67AE86107313575BE75BB4535864B57ADEF917DAE1F04B0ED4BD02\
         EE81CC3F0CAA9B7A9A9D940D9372
         """),
    ]

    @Test("SigGen15_186-3 (SHA-1, SHA-224): S^e mod n is EMSA-PKCS1-v1_5 of the message's digest")
    func pkcs1v15SignatureVectors() throws {
        let modulus = try bytes(Self.sigGenModulus)
        for vector in Self.sigGenCases {
            let digest = vector.hash.hash(try bytes(vector.message))
            let encoded = try RSAPadding.pkcs1v15(digest, hash: vector.hash, size: modulus.count)
            let recovered = try RSARaw.publicOperation(modulus: modulus, exponent: Data([0x10, 0x01]), try bytes(vector.signature))
            #expect(recovered.hex == encoded.hex, "\(vector.hash)")
        }
    }

    @Test("The public operation refuses a value not below the modulus, and a longer input")
    func publicOperationRange() throws {
        let modulus = try bytes(Self.sigGenModulus)
        #expect(throws: PrimitiveError.self) { try RSARaw.publicOperation(modulus: modulus, exponent: Data([3]), modulus) }
        #expect(throws: PrimitiveError.self) { try RSARaw.publicOperation(modulus: modulus, exponent: Data([3]), Data([1]) + modulus) }
        // 2^e mod n for a small case anyone can check: 2^3 = 8.
        #expect(try RSARaw.publicOperation(modulus: modulus, exponent: Data([3]), Data([2])) == Data(count: modulus.count - 1) + Data([8]))
    }
}

package dev.steadfast.grpc;

import io.grpc.ServerCallHandler;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.ServerCalls;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.Cancellable;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

/**
 * grpc-java call handlers for the service's Mutiny methods: a unary RPC answers the {@link Uni}'s item or its
 * failure (a {@code StatusRuntimeException} from {@link GrpcErrors}); a server-streaming RPC sends the
 * {@link Multi}'s items and ends with its completion or failure, and a client that cancels (or goes away) cancels
 * the subscription. A method that throws instead of failing its {@code Uni} is treated the same way.
 */
final class MutinyCalls {

    private MutinyCalls() {
    }

    static <Q, A> ServerCallHandler<Q, A> unary(Function<Q, Uni<A>> method) {
        return ServerCalls.asyncUnaryCall((request, observer) -> Uni.createFrom().deferred(() -> method.apply(request))
                .subscribe().with(answer -> {
                    observer.onNext(answer);
                    observer.onCompleted();
                }, observer::onError));
    }

    static <Q, A> ServerCallHandler<Q, A> serverStreaming(Function<Q, Multi<A>> method) {
        return ServerCalls.asyncServerStreamingCall((request, observer) -> {
            ServerCallStreamObserver<A> out = (ServerCallStreamObserver<A>) observer;
            AtomicReference<Cancellable> subscription = new AtomicReference<>();
            out.setOnCancelHandler(() -> {
                Cancellable s = subscription.get();
                if (s != null) {
                    s.cancel();
                }
            });
            subscription.set(Multi.createFrom().deferred(() -> method.apply(request))
                    .subscribe().with(out::onNext, out::onError, out::onCompleted));
            if (out.isCancelled()) {
                subscription.get().cancel();
            }
        });
    }
}

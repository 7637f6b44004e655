package dev.steadfast.domain.retry;

/**
 * What {@link RetryDecider} needs to know about one failed attempt.
 *
 * <p>Plain data with no invariants beyond those below; it carries no message or details, which
 * belong to {@link ErrorEntry}.
 *
 * @param errorType   dot-namespaced error type (spec section 6.1); may be null when unknown
 * @param handlerCode the handler's response code (spec section 7), or null for none, which means RETRY
 * @param retryable   the worker's own retryable flag: {@code Boolean.FALSE} means the worker declares
 *                    the error permanent; null or TRUE leave the decision to the policy
 * @param leaseExpiry true when the server detected a visibility/lease timeout rather than the worker
 *                    reporting an error (spec section 9.2); such failures are always retryable while
 *                    attempts remain
 */
public record Failure(String errorType, HandlerCode handlerCode, Boolean retryable, boolean leaseExpiry) {

    /** A worker-reported error with no handler code and no retryable flag. */
    public static Failure error(String errorType) {
        return new Failure(errorType, null, null, false);
    }

    /** A worker-reported error with a handler response code. */
    public static Failure withCode(String errorType, HandlerCode code) {
        return new Failure(errorType, code, null, false);
    }

    /** A lease (visibility timeout) expiry detected by the server. */
    public static Failure leaseExpired(String errorType) {
        return new Failure(errorType, null, null, true);
    }
}
